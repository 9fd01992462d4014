import type { ReactElement } from "react";
import { useEditor } from "../../editor/editor-context.js";
import { getRunPanelStore } from "../panel/run-panel-store.js";
import { useRunStore } from "../use-run-store.js";

/**
 * On a fork: which run and step it was forked from, a way back to that run, and **Compare with parent**
 * (the Compare tab, the parent as A and the fork as B, aligned at the fork point).
 */
export function ForkOfNote(): ReactElement | null {
  const editor = useEditor();
  const runId = useRunStore((state) => state.run?.id ?? null);
  const forkOf = useRunStore((state) => state.run?.forkOf ?? null);
  if (!forkOf || !runId) return null;
  return (
    <div
      className="fork-of"
      data-testid="run-fork-of"
      data-parent-run-id={forkOf.runId}
      data-step={forkOf.step}
    >
      <span>
        Forked from{" "}
        <button
          type="button"
          className="link-btn"
          title="Open the run this one was forked from"
          onClick={() => void editor.runs.getState().openRun(forkOf.runId)}
        >
          {forkOf.runId.slice(0, 12)}
        </button>{" "}
        at step {forkOf.step + 1}; the steps before it are copied (dimmed).
      </span>
      <button
        type="button"
        className="btn btn-small"
        data-testid="compare-with-parent"
        onClick={() => {
          getRunPanelStore(editor).getState().set({ tab: "compare" });
          void editor.runs.getState().openCompare(forkOf.runId, runId);
        }}
      >
        Compare with parent
      </button>
    </div>
  );
}
