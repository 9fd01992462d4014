import { useId, useMemo, type ReactElement } from "react";
import { useDocument, useEditor, useServer } from "../../editor/editor-context.js";
import { useReleases } from "../../release-views/use-releases.js";
import {
  getRunTargetLabel,
  getRunTargetOptions,
  getRunTargetValue,
  readRunTargetValue,
} from "../../releases/run-target.js";
import { getPanelRunTarget, getRunPanelStore, useRunPanel } from "./run-panel-store.js";

const NONE: readonly never[] = [];

/** How many saved versions the picker offers besides the latest save and the channels. */
const RECENT_VERSIONS = 8;

/** The agent's newest saved version, as the server list, the version history and the document know it. */
function useLatestVersion(agentId: string | null): number | null {
  const listed = useServer((state) => state.agents.find((agent) => agent.id === agentId)?.version ?? 0);
  const saved = useDocument((state) => state.baseVersion ?? 0);
  const versions = useReleases((state) => (state.agentId === agentId ? state.versions : NONE));
  const newest = Math.max(listed, saved, ...versions.map((entry) => entry.version));
  return agentId === null || newest === 0 ? null : newest;
}

/**
 * What Run (and a new chat) starts, said in words — "Runs v12 (latest save) · production is v9" — with a
 * picker for the latest save (the default), a channel as it points now, or one recent version.
 */
export function RunTargetPicker(props: { what: "run" | "chat" }): ReactElement | null {
  const editor = useEditor();
  const pickerId = useId();
  const agentId = useDocument((state) => state.agentId);
  const choice = useRunPanel((state) => getPanelRunTarget(state, agentId));
  const channels = useReleases((state) => (state.agentId === agentId ? state.channels : NONE));
  const versions = useReleases((state) => (state.agentId === agentId ? state.versions : NONE));
  const latestVersion = useLatestVersion(agentId);
  const recent = useMemo(
    () =>
      versions
        .map((entry) => entry.version)
        .sort((a, b) => b - a)
        .slice(0, RECENT_VERSIONS),
    [versions],
  );
  if (agentId === null) return null;
  const context = { latestVersion, channels };
  const label = getRunTargetLabel(choice, context);
  const options = getRunTargetOptions({ ...context, versions: recent, choice });
  return (
    <div className="run-target" data-testid="run-target" data-target={getRunTargetValue(choice)}>
      <span className="run-target-label" data-testid="run-target-label">
        {props.what === "chat" ? label.replace(/^Runs/, "New chats run") : label}
      </span>
      <label className="sr-only" htmlFor={pickerId}>
        {props.what === "chat" ? "Version a new chat runs" : "Version Run starts"}
      </label>
      <select
        id={pickerId}
        className="input run-target-picker"
        data-testid="run-target-picker"
        value={getRunTargetValue(choice)}
        title="Run the latest save (the default), what a channel serves, or one saved version"
        onChange={(event) =>
          getRunPanelStore(editor)
            .getState()
            .set({ target: readRunTargetValue(event.target.value), targetAgentId: agentId })
        }
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
