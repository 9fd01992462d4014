import { PRODUCTION_CHANNEL, type Channel } from "@waddle/protocol";
import type { ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { formatRelativeTime } from "../util/format-time.js";
import { useReleases, useReleasesFollowAgent } from "./use-releases.js";

/** Production first, then the others by name. */
export function getShownChannels(channels: readonly Channel[]): Channel[] {
  return [...channels].sort((a, b) =>
    a.name === PRODUCTION_CHANNEL ? -1 : b.name === PRODUCTION_CHANNEL ? 1 : a.name.localeCompare(b.name),
  );
}

/**
 * The open agent's channels beside the version being edited ("production v9", "staging v11"): each opens
 * the Releases list on that channel. Read when the agent opens, after a save, a release and a rollback.
 */
export function ChannelBadges(): ReactElement | null {
  const editor = useEditor();
  useReleasesFollowAgent();
  const channels = useReleases((state) => state.channels);
  if (channels.length === 0) return null;
  return (
    <span className="channel-badges" aria-label="Channels">
      {getShownChannels(channels).map((channel) => (
        <button
          key={channel.name}
          type="button"
          className={`channel-badge${channel.name === PRODUCTION_CHANNEL ? " is-production" : ""}`}
          data-testid="channel-badge"
          data-channel={channel.name}
          data-version={channel.version}
          title={`${channel.name} serves v${channel.version} · released by ${channel.releasedBy} ${formatRelativeTime(channel.releasedAt)}${channel.notes ? ` · ${channel.notes}` : ""}. Click for its releases.`}
          onClick={() => void editor.ui.getState().openDialog("releases", { channel: channel.name })}
        >
          <span className="channel-badge-name">{channel.name}</span>
          <span className="channel-badge-version">v{channel.version}</span>
        </button>
      ))}
    </span>
  );
}
