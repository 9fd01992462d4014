import type { ReactElement } from "react";
import { useEditor } from "../../editor/editor-context.js";
import { useRunStore } from "../use-run-store.js";
import { backToEditing } from "../run-actions.js";
import { useVersionNote } from "../panel/run-summary.js";
import { getShownStatuses } from "../get-shown-statuses.js";
import { GuardShield } from "./guard-shield.js";

const MODE_LABELS = {
  live: "Watching a run",
  replay: "Replaying a run",
  compare: "Comparing runs",
  edit: "",
} as const;

/**
 * Over the canvas while a run is shown: what is shown (live, replay), its status, a note when the open
 * agent has changed since the version that ran, and the way back to editing.
 */
export function RunCanvasBar(): ReactElement | null {
  const editor = useEditor();
  const mode = useRunStore((state) => state.mode);
  const status = useRunStore((state) => state.status ?? state.view?.status ?? null);
  const version = useRunStore((state) => state.view?.agentVersion ?? null);
  const compare = useRunStore((state) => state.compare);
  const guards = useRunStore((state) => (state.mode === "compare" ? null : (state.view?.guards ?? null)));
  const note = useVersionNote();
  if (mode === "edit") return null;
  const statuses = getShownStatuses({ mode, status, version, compare });
  return (
    <div
      className="run-canvas-bar"
      role="region"
      aria-label="Run shown on the canvas"
      data-testid="run-canvas-bar"
      data-mode={mode}
    >
      <span className="run-canvas-bar-text">
        {MODE_LABELS[mode]}
        {version !== null && mode !== "compare" ? ` · v${version}` : ""} · editing is off
      </span>
      {statuses.map((shown) => (
        <span
          key={shown.side ?? "run"}
          className={`run-state-chip status-${shown.status}`}
          data-testid="run-canvas-status"
          data-side={shown.side ?? undefined}
          data-status={shown.status}
          title={shown.side ? `Run ${shown.side} (v${shown.version}) ${shown.status}` : undefined}
        >
          {shown.side ? `${shown.side} ${shown.status}` : shown.status}
        </span>
      ))}
      {guards && guards.input.length > 0 ? (
        <span className="run-canvas-guard" data-testid="run-canvas-guard" data-on="input">
          query <GuardShield marks={guards.input} />
        </span>
      ) : null}
      {guards && guards.output.length > 0 ? (
        <span className="run-canvas-guard" data-testid="run-canvas-guard" data-on="output">
          answer <GuardShield marks={guards.output} />
        </span>
      ) : null}
      {note && mode !== "compare" ? (
        <span className="run-version-note" title={note} data-testid="run-canvas-version-note">
          changed since
        </span>
      ) : null}
      <span className="run-legend" aria-label="Transitions drawn by how they came about">
        <span className="run-legend-item prov-llm">LLM</span>
        <span className="run-legend-item prov-auto_seq">auto-seq</span>
        <span className="run-legend-item prov-parallel">parallel</span>
        <span className="run-legend-item prov-join">join</span>
      </span>
      <button
        type="button"
        className="btn btn-primary btn-small"
        data-testid="back-to-editing"
        onClick={() => backToEditing(editor)}
      >
        Back to editing
      </button>
    </div>
  );
}
