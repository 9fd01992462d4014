import { TERMINAL_RUN_STATUSES } from "@waddle/protocol";
import { useCallback, useEffect, useMemo, useState, type ReactElement } from "react";
import { useEditor } from "../../editor/editor-context.js";
import type { TimelineEntry } from "../../runs/fold/run-view.js";
import { useRunStore } from "../use-run-store.js";
import { ApprovalCard } from "./approval-card.js";
import { BudgetBars } from "./budget-bars.js";
import { getBudgetBars, getElapsedMs } from "./get-budget-bars.js";
import { RunReplay } from "../replay/replay-controls.js";
import { getReplayEndView } from "../replay/replay-end-view.js";
import { decideOnPause } from "../run-actions.js";
import { RunAnswer } from "./run-answer.js";
import { RunComposer } from "./run-composer.js";
import { getRunPanelStore, useRunPanel } from "./run-panel-store.js";
import { RunSummary } from "./run-summary.js";
import { RunThinking } from "./run-thinking.js";
import { RunTimeline } from "./run-timeline.js";
import { RunTodos } from "./run-todos.js";
import { RunTotals } from "./run-totals.js";
import { StepDetail } from "./step-detail.js";
import { useNow } from "./use-now.js";
import { ForkOfNote } from "../fork/fork-of-note.js";
import { SaveAsTest } from "../tests/save-as-test.js";
import { useComposerFollowsShownRun } from "./use-composer-follows-shown-run.js";

const ERROR_TEST_IDS = { already_answered: "already-answered", resume: "resume-error" } as const;

/** The panel's own notice (a missing query) and the run store's last error (a refused decision, …). */
function RunNotices(): ReactElement | null {
  const editor = useEditor();
  const notice = useRunPanel((state) => state.notice);
  const error = useRunStore((state) => state.error);
  const status = useRunStore((state) => state.status);
  return (
    <>
      {notice ? (
        <p className={`run-notice tone-${notice.tone}`} role="alert" data-testid={notice.kind}>
          <span>{notice.message}</span>
          <button
            type="button"
            className="btn btn-ghost btn-small"
            aria-label="Dismiss"
            onClick={() => getRunPanelStore(editor).getState().set({ notice: null })}
          >
            ×
          </button>
        </p>
      ) : null}
      {error ? (
        <p
          className={`run-notice tone-error kind-${error.kind}`}
          role="alert"
          data-testid={
            error.kind in ERROR_TEST_IDS
              ? ERROR_TEST_IDS[error.kind as keyof typeof ERROR_TEST_IDS]
              : "run-error"
          }
          data-kind={error.kind}
        >
          <span>
            {error.kind === "already_answered" ? <strong>Already answered. </strong> : null}
            {error.message}
            {error.kind === "already_answered" && status ? ` The run is now ${status}.` : null}
          </span>
          <button
            type="button"
            className="btn btn-ghost btn-small"
            aria-label="Dismiss"
            onClick={() => editor.runs.getState().clearError()}
          >
            ×
          </button>
        </p>
      ) : null}
    </>
  );
}

/** The shown run: pause, answer, thinking, todos, totals against budgets, the timeline and a step's detail. */
function ShownRun(): ReactElement | null {
  const editor = useEditor();
  const view = useRunStore((state) => state.view);
  const spec = useRunStore((state) => state.spec);
  const mode = useRunStore((state) => state.mode);
  const selectedCallId = useRunStore((state) => state.selectedCallId);
  const editingToken = useRunPanel((state) => state.editingToken);
  const [selectedSeq, setSelectedSeq] = useState<number | null>(null);
  const status = useRunStore((state) => state.status);
  const live = view !== null && mode === "live" && !TERMINAL_RUN_STATUSES.has(status ?? view.status);
  const now = useNow(live && view?.status === "running");

  // a node clicked on the canvas selects its call: show the timeline entry of that call
  useEffect(() => {
    if (!view || selectedCallId === null) return;
    const current = view.timeline.find((entry) => entry.seq === selectedSeq);
    if (current?.callId === selectedCallId) return;
    const entry = view.timeline.findLast((candidate) => candidate.callId === selectedCallId);
    if (entry) setSelectedSeq(entry.seq);
    // only a new selection from outside moves the timeline, not every new event
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedCallId]);

  const replayIndex = useRunStore((state) => (state.mode === "replay" ? state.replay.index : undefined));
  const endView = replayIndex ? getReplayEndView(replayIndex) : null;
  const onSelect = useCallback(
    (entry: TimelineEntry) => {
      setSelectedSeq(entry.seq);
      // in a replay, a click jumps to just after that entry's event
      const index =
        editor.runs.getState().mode === "replay" ? editor.runs.getState().replay.index : undefined;
      if (index) editor.runs.getState().seek(index.getPositionOfSeq(entry.seq));
      const runs = editor.runs.getState();
      const callId = entry.callId ?? (entry.tool ? (runs.view?.nodes[entry.tool]?.lastCallId ?? null) : null);
      runs.selectCall(callId);
    },
    [editor],
  );
  // A run can be forked once it has paused or ended (the server refuses one still going).
  const forkable =
    view !== null &&
    mode !== "compare" &&
    (status ?? view.status) !== "running" &&
    (status ?? view.status) !== "queued";
  const runId = view?.runId ?? null;
  const onFork = useCallback(
    (entry: TimelineEntry) => {
      if (runId === null) return;
      getRunPanelStore(editor)
        .getState()
        .set({ forking: { runId, step: entry.step, callId: entry.callId ?? null } });
    },
    [editor, runId],
  );
  const bars = useMemo(
    () =>
      view && spec
        ? getBudgetBars({
            spec,
            totals: view.totals,
            steps: view.steps,
            elapsedMs: getElapsedMs({ firstTs: view.firstTs, lastTs: view.lastTs, live, now }),
          })
        : [],
    [view, spec, live, now],
  );
  if (!view) return null;
  const elapsedMs = getElapsedMs({ firstTs: view.firstTs, lastTs: view.lastTs, live, now });
  const selectedEntry =
    selectedSeq === null ? null : (view.timeline.find((entry) => entry.seq === selectedSeq) ?? null);
  const selectedCall =
    selectedCallId !== null
      ? (view.calls[selectedCallId] ?? null)
      : selectedEntry?.callId
        ? (view.calls[selectedEntry.callId] ?? null)
        : null;
  const pause = view.pause;
  const pauseTool = pause?.tool ? spec?.tools.find((tool) => tool.name === pause.tool) : undefined;

  return (
    <>
      <RunSummary view={view} />
      <ForkOfNote />
      <SaveAsTest />
      {pause && mode === "live" && (status ?? view.status) === "paused" ? (
        <ApprovalCard
          key={pause.resumeToken}
          pause={pause}
          tool={pauseTool}
          editing={editingToken === pause.resumeToken}
          onEditingChange={(editing) =>
            getRunPanelStore(editor)
              .getState()
              .set({ editingToken: editing ? pause.resumeToken : null })
          }
          onDecide={(input) => decideOnPause(editor, input)}
        />
      ) : null}
      <RunAnswer view={view} />
      <RunThinking thinking={view.thinking} />
      <RunTodos todos={view.todos} />
      <div>
        <div className="run-subhead">Totals and budgets</div>
        <RunTotals totals={view.totals} elapsedMs={elapsedMs} />
        <BudgetBars bars={bars} />
      </div>
      <div>
        <div className="run-subhead">
          Timeline <span className="run-muted">{view.timeline.length} entries · ↑↓ to move</span>
        </div>
        <RunTimeline
          timeline={endView?.timeline ?? view.timeline}
          steps={endView?.steps ?? view.steps}
          stepsDone={(endView ?? view).totals.steps}
          ended={!live}
          futureAfterSeq={endView ? view.lastSeq : undefined}
          selectedSeq={selectedSeq}
          onSelect={onSelect}
          follow={live}
          onFork={forkable ? onFork : undefined}
        />
      </div>
      <StepDetail
        call={selectedCall}
        entry={selectedEntry}
        onClose={() => {
          setSelectedSeq(null);
          editor.runs.getState().selectCall(null);
        }}
      />
    </>
  );
}

/** The Run tab: start a run, then watch it (or a replay) and answer its pauses. */
export function RunTab(): ReactElement {
  const mode = useRunStore((state) => state.mode);
  useComposerFollowsShownRun();
  return (
    <div className="run-tab" data-testid="run-tab">
      {mode === "replay" ? <RunReplay /> : null}
      <RunComposer />
      <RunNotices />
      <ShownRun />
    </div>
  );
}
