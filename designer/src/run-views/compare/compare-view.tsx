import type { ReactElement } from "react";
import { useEditor } from "../../editor/editor-context.js";
import type { CompareSide } from "../../runs/run-store-state.js";
import { useRunStore } from "../use-run-store.js";
import { CompareTable, type CompareSideLabel } from "./compare-table.js";
import { PairPicker } from "./pair-picker.js";
import { formatStartTime } from "../../util/format-time.js";

/**
 * The Compare tab: two runs of the agent side by side (the run store loads and folds both, `compareRuns`
 * aligns them). With none chosen yet, two pickers choose them here (or two ticks in History).
 */
export function RunCompare(): ReactElement {
  const editor = useEditor();
  const compare = useRunStore((state) => state.compare);
  const error = useRunStore((state) => (state.error?.kind === "compare" ? state.error.message : null));
  const close = () => editor.runs.getState().closeCompare();
  return (
    <section className="run-compare" data-testid="run-compare" aria-label="Compare two runs">
      {compare === null ? (
        <ComparePicker />
      ) : (
        <>
          <div className="compare-toolbar">
            <span className="compare-toolbar-title">Comparing two runs</span>
            <button
              type="button"
              className="btn btn-ghost btn-small"
              data-testid="compare-close"
              onClick={close}
            >
              Close comparison
            </button>
          </div>
          {error ? (
            <p className="empty-note is-error" role="alert">
              Could not load both runs: {error}
            </p>
          ) : compare.loading || !compare.comparison || !compare.left || !compare.right ? (
            <p className="empty-note" role="status">
              Loading both runs…
            </p>
          ) : (
            <CompareTable
              comparison={compare.comparison}
              left={getSideLabel("A", compare.left)}
              right={getSideLabel("B", compare.right)}
              {...getForkPoint(compare.left, compare.right)}
            />
          )}
        </>
      )}
    </section>
  );
}

/** When one run is a fork of the other: the step it was forked at, and which side is the fork. */
function getForkPoint(left: CompareSide, right: CompareSide): { forkStep?: number; forkSide?: "A" | "B" } {
  if (right.run.forkOf?.runId === left.runId) return { forkStep: right.run.forkOf.step, forkSide: "B" };
  if (left.run.forkOf?.runId === right.runId) return { forkStep: left.run.forkOf.step, forkSide: "A" };
  return {};
}

function getSideLabel(letter: string, side: CompareSide): CompareSideLabel {
  return {
    runId: side.runId,
    title: `${letter} · v${side.run.agentVersion}`,
    query: side.run.query,
    started: formatStartTime(side.run.startedAt ?? side.run.createdAt),
  };
}

/** Two selects over the agent's ended runs, A the older by default. */
function ComparePicker(): ReactElement {
  const editor = useEditor();
  const runs = useRunStore((state) => state.runs);
  const ended = runs.filter((run) => run.status !== "queued" && run.status !== "running");
  return (
    <PairPicker
      items={ended}
      noun="Run"
      describe={(run) =>
        `${formatStartTime(run.startedAt ?? run.createdAt)} · ${run.status} · ${run.query.slice(0, 60)}`
      }
      empty="Comparing needs two runs of this agent that have ended. Run it twice (or tick two runs in History)."
      intro={
        <p className="explain">
          Pick two runs of this agent: their steps line up side by side, where they part is marked, and the
          totals show what B cost more or less than A.
        </p>
      }
      className="compare-picker"
      ariaLabel="Choose two runs to compare"
      testIds={{ left: "compare-pick-left", right: "compare-pick-right", submit: "compare-start" }}
      primary
      onCompare={(a, b) => void editor.runs.getState().openCompare(a, b)}
    />
  );
}
