import type { Channel, Release } from "@waddle/protocol";
import { useEffect, useState, type ReactElement } from "react";
import { Dialog } from "../components/dialog.js";
import { useDocument, useEditor } from "../editor/editor-context.js";
import { getReleaseRefusal } from "../releases/release-errors.js";
import { useDenied } from "../store/me-store.js";
import { formatRelativeTime } from "../util/format-time.js";
import { getShownChannels } from "./channel-badges.js";
import { getReleasesStore, useReleases } from "./use-releases.js";

/** What gated a release, in words. */
export function getGateText(release: Pick<Release, "kind" | "testRunId" | "overrideReason">): string {
  if (release.overrideReason) return `Released anyway: ${release.overrideReason}`;
  if (release.testRunId) return release.kind === "rollback" ? "Tests had passed on it" : "Tests passed";
  return release.kind === "rollback" ? "Rolled back (no test run)" : "No tests gated it";
}

function ReleaseItem({ release }: { release: Release }): ReactElement {
  const moved =
    release.kind === "rollback"
      ? `Rolled back to v${release.version}${release.previousVersion ? ` from v${release.previousVersion}` : ""}`
      : `v${release.version}${release.previousVersion ? ` (was v${release.previousVersion})` : " · first release"}`;
  return (
    <li
      className={`release-item is-${release.kind}`}
      data-testid="release-item"
      data-channel={release.channel}
      data-version={release.version}
      data-kind={release.kind}
    >
      <div className="release-item-head">
        <span className="release-item-moved">{moved}</span>
        <span className="release-item-meta" title={release.releasedAt}>
          {release.releasedBy} · {formatRelativeTime(release.releasedAt)}
        </span>
      </div>
      {release.notes ? <p className="release-item-notes">{release.notes}</p> : null}
      <p className={`release-item-gate${release.overrideReason ? " is-override" : ""}`}>
        {getGateText(release)}
        {release.testRunId ? <span className="release-item-id"> · test run {release.testRunId}</span> : null}
        {release.shadowReportId ? (
          <span className="release-item-id"> · shadow {release.shadowReportId}</span>
        ) : null}
      </p>
    </li>
  );
}

function ChannelHistory(props: {
  channel: Channel;
  releases: Release[];
  denied: string | null;
}): ReactElement {
  const { channel } = props;
  const editor = useEditor();
  const agentId = useDocument((state) => state.agentId) ?? "";
  const [confirming, setConfirming] = useState(false);
  // its one release so far: nothing before it (a rollback chain's end is found by the server)
  const firstOnly = props.releases.length === 1 && props.releases[0]?.previousVersion === null;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const rollback = async () => {
    setBusy(true);
    setError(null);
    try {
      const release = await editor.api.rollbackChannel(agentId, channel.name);
      await getReleasesStore(editor).getState().refresh();
      editor.ui.getState().notify("success", `${channel.name} rolled back to v${release.version}.`);
      setConfirming(false);
    } catch (caught) {
      const refusal = getReleaseRefusal(caught);
      setError(
        refusal.kind === "no_previous_release"
          ? `${channel.name} has no earlier release to go back to.`
          : refusal.kind === "tests_failed"
            ? `Not rolled back: the earlier version fails ${refusal.details.failures.length} test case(s) now.`
            : refusal.message,
      );
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="release-channel" data-testid="release-channel-history" data-channel={channel.name}>
      <header className="release-channel-head">
        <h3>
          {channel.name} <span className="channel-badge-version">v{channel.version}</span>
        </h3>
        {confirming ? (
          <span className="release-rollback-confirm">
            Point {channel.name} back at its previous release?
            <button
              type="button"
              className="btn btn-small btn-danger"
              data-testid="release-rollback-confirm"
              disabled={busy}
              onClick={() => void rollback()}
            >
              {busy ? "Rolling back…" : "Roll back"}
            </button>
            <button type="button" className="btn btn-small" onClick={() => setConfirming(false)}>
              Keep v{channel.version}
            </button>
          </span>
        ) : (
          <button
            type="button"
            className="btn btn-small"
            data-testid="release-rollback"
            data-channel={channel.name}
            disabled={props.denied !== null || firstOnly}
            title={
              props.denied ??
              (firstOnly
                ? `${channel.name} has had one release only: there is nothing to go back to.`
                : `Point ${channel.name} back at the version it served before v${channel.version}`)
            }
            onClick={() => setConfirming(true)}
          >
            Roll back
          </button>
        )}
      </header>
      {error ? (
        <p className="field-error" role="alert" data-testid="release-rollback-error">
          {error}
        </p>
      ) : null}
      <ol className="release-items">
        {props.releases.map((release) => (
          <ReleaseItem key={release.id} release={release} />
        ))}
      </ol>
    </section>
  );
}

/** The open agent's releases: each channel, where it points, its history (who, when, notes, what gated it), Roll back. */
export function ReleasesDialog(props: { channel?: string | undefined; close: () => void }): ReactElement {
  const editor = useEditor();
  const channels = useReleases((state) => state.channels);
  const releases = useReleases((state) => state.releases);
  const loaded = useReleases((state) => state.loaded);
  const error = useReleases((state) => state.error);
  const denied = useDenied("agents:write");
  const [shown, setShown] = useState(props.channel ?? "");
  useEffect(() => {
    void getReleasesStore(editor).getState().refresh();
  }, [editor]);
  const listed = getShownChannels(channels).filter((channel) => shown === "" || channel.name === shown);
  return (
    <Dialog title="Releases" size="large" testId="releases-dialog" onClose={props.close}>
      <div className="releases-toolbar">
        <label className="field-label" htmlFor="releases-channel-filter">
          Channel
        </label>
        <select
          id="releases-channel-filter"
          className="input"
          value={shown}
          onChange={(event) => setShown(event.target.value)}
        >
          <option value="">All channels</option>
          {channels.map((channel) => (
            <option key={channel.name} value={channel.name}>
              {channel.name}
            </option>
          ))}
        </select>
        <span className="releases-toolbar-spacer" />
        <button
          type="button"
          className="btn btn-primary btn-small"
          disabled={denied !== null}
          title={denied ?? "Point a channel at a saved version"}
          onClick={() => void editor.ui.getState().openDialog("release", shown ? { channel: shown } : {})}
        >
          Release…
        </button>
      </div>
      {error ? <p className="field-error">{error}</p> : null}
      <div className="releases-list" data-testid="releases-list">
        {!loaded ? (
          <p className="empty-note">Loading…</p>
        ) : channels.length === 0 ? (
          <p className="empty-note">
            No releases yet: every caller gets the latest save. Release… points production (or another
            channel) at a version, and callers get that one until the next release.
          </p>
        ) : (
          listed.map((channel) => (
            <ChannelHistory
              key={channel.name}
              channel={channel}
              releases={releases.filter((release) => release.channel === channel.name)}
              denied={denied}
            />
          ))
        )}
      </div>
    </Dialog>
  );
}
