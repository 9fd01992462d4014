import { memo, useCallback, useMemo, type KeyboardEvent, type ReactElement } from "react";
import type { DecisionStatus, StepView, TimelineEntry } from "../../runs/fold/run-view.js";
import { getTimelineRows, isWrappedEntry, TIMELINE_LABELS, type TimelineRow } from "./get-timeline-rows.js";
import { VirtualList } from "./virtual-list.js";
import { useDenied } from "../../store/me-store.js";

const ROW_HEIGHT = 28;

interface RunTimelineProps {
  timeline: readonly TimelineEntry[];
  steps: readonly StepView[];
  selectedSeq: number | null;
  onSelect: (entry: TimelineEntry) => void;
  /** Follow new entries while the reader is at the end (a live run). */
  follow: boolean;
  /** In a replay: entries after this seq are yet to come at the position (dimmed; a click jumps there). */
  futureAfterSeq?: number | undefined;
  /** **Fork from here** on each entry (a run that has paused or ended). */
  onFork?: ((entry: TimelineEntry) => void) | undefined;
  /** The run's step count (`RunTotals.steps`): which step headers are steps done. */
  stepsDone?: number | undefined;
  /** The run has ended: a step not done was not finished (else it is in progress). */
  ended?: boolean | undefined;
}

const TimelineRowView = memo(function TimelineRowView({
  row,
  selected,
  future,
  onSelect,
  onFork,
}: {
  row: TimelineRow;
  selected: boolean;
  future?: boolean;
  onSelect: (entry: TimelineEntry) => void;
  onFork?: ((entry: TimelineEntry) => void) | undefined;
}): ReactElement {
  const forkDenied = useDenied("runs:start");
  if (row.type === "step") {
    return (
      <div
        className="timeline-step"
        role="presentation"
        style={{ height: ROW_HEIGHT }}
        data-testid="run-timeline-step"
        data-step-done={row.done ? "true" : "false"}
      >
        <span className="timeline-step-name">{row.label}</span>
        <span className="timeline-step-summary">{row.summary}</span>
      </div>
    );
  }
  const { entry } = row;
  const wrapped = isWrappedEntry(entry);
  return (
    <div
      id={`run-timeline-${entry.seq}`}
      role="option"
      aria-selected={selected}
      className={`timeline-entry kind-${entry.kind} tone-${entry.tone ?? "neutral"}${selected ? " is-selected" : ""}${future ? " is-future" : ""}${entry.replayed ? " is-replayed" : ""}${wrapped ? " is-wrapped" : ""}`}
      // an explaining line wraps: the list measures its height
      style={wrapped ? { minHeight: ROW_HEIGHT } : { height: ROW_HEIGHT }}
      data-testid="run-timeline-entry"
      data-kind={entry.kind}
      data-seq={entry.seq}
      data-tool={entry.tool}
      data-replayed={entry.replayed ? "true" : undefined}
      data-cached={entry.cached ? "true" : undefined}
      data-status={entry.status}
      title={getEntryTitle(entry)}
      onClick={() => onSelect(entry)}
    >
      <span className="timeline-badge">
        {entry.status ? DECISION_LABELS[entry.status] : TIMELINE_LABELS[entry.kind]}
      </span>
      <span className="timeline-title">{entry.title}</span>
      {entry.cached ? <span className="timeline-flag">cached</span> : null}
      {entry.edited ? <span className="timeline-flag is-edited">edited</span> : null}
      {entry.note !== undefined ? (
        <span className="timeline-detail timeline-note" data-testid="run-timeline-note">
          “{entry.note}”
        </span>
      ) : entry.detail ? (
        <span className="timeline-detail">{entry.detail}</span>
      ) : null}
      {onFork ? (
        <button
          type="button"
          className="timeline-fork"
          data-testid="fork-button"
          disabled={forkDenied !== null}
          title={forkDenied ?? `Fork from step ${entry.step + 1}`}
          aria-label={`Fork from here (step ${entry.step + 1})`}
          tabIndex={-1}
          onClick={(event) => {
            event.stopPropagation();
            onFork(entry);
          }}
        >
          Fork
        </button>
      ) : null}
    </div>
  );
});

const DECISION_LABELS: Record<DecisionStatus, string> = {
  approved: "Approved",
  edited: "Edited",
  rejected: "Rejected",
};

function getEntryTitle(entry: TimelineEntry): string {
  const title = entry.detail ? `${entry.title}\n${entry.detail}` : entry.title;
  if (entry.replayed) return `${title}\n(copied from the run this one was forked from)`;
  return entry.cached ? `${title}\n(served from the parent run's record)` : title;
}

/**
 * The run's step timeline: Plan / Act / Obs / Reflect, tool calls, repairs, retries, constraint
 * violations, summaries and tasks, under a header per step (latency, tokens, cost). Virtualized; arrow
 * keys move the selection, which shows the step's detail and selects its node on the canvas.
 */
export function RunTimeline({
  timeline,
  steps,
  selectedSeq,
  onSelect,
  follow,
  futureAfterSeq,
  onFork,
  stepsDone,
  ended,
}: RunTimelineProps): ReactElement {
  const rows = useMemo(
    () =>
      getTimelineRows(timeline, steps, {
        ...(stepsDone === undefined ? {} : { stepsDone }),
        ...(ended === undefined ? {} : { ended }),
      }),
    [timeline, steps, stepsDone, ended],
  );
  const selectedIndex = useMemo(
    () =>
      selectedSeq === null
        ? -1
        : rows.findIndex((row) => row.type === "entry" && row.entry.seq === selectedSeq),
    [rows, selectedSeq],
  );
  const getRowKey = useCallback((index: number) => rows[index]?.key ?? String(index), [rows]);
  const renderRow = useCallback(
    (index: number) => {
      const row = rows[index]!;
      return (
        <TimelineRowView
          key={row.key}
          row={row}
          selected={row.type === "entry" && row.entry.seq === selectedSeq}
          future={row.type === "entry" && futureAfterSeq !== undefined && row.entry.seq > futureAfterSeq}
          onSelect={onSelect}
          onFork={onFork}
        />
      );
    },
    [rows, selectedSeq, onSelect, futureAfterSeq, onFork],
  );
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      // [where to start looking, which way]: the next entry row from there is selected
      const moves: Record<string, [number, 1 | -1]> = {
        ArrowDown: [selectedIndex, 1],
        ArrowUp: [selectedIndex < 0 ? rows.length : selectedIndex, -1],
        Home: [-1, 1],
        End: [rows.length, -1],
      };
      const move = moves[event.key];
      if (!move || rows.length === 0) return;
      event.preventDefault();
      const [from, direction] = move;
      for (let index = from + direction; index >= 0 && index < rows.length; index += direction) {
        const row = rows[index]!;
        if (row.type === "entry") return onSelect(row.entry);
      }
    },
    [rows, selectedIndex, onSelect],
  );
  if (timeline.length === 0)
    return (
      <p className="run-empty" data-testid="run-timeline">
        No steps yet.
      </p>
    );
  return (
    <VirtualList
      count={rows.length}
      rowHeight={ROW_HEIGHT}
      renderRow={renderRow}
      activeIndex={selectedIndex}
      follow={follow}
      role="listbox"
      label="Run timeline"
      activeDescendant={selectedSeq === null || selectedIndex < 0 ? undefined : `run-timeline-${selectedSeq}`}
      testId="run-timeline"
      className="run-timeline"
      onKeyDown={onKeyDown}
      getRowKey={getRowKey}
    />
  );
}
