import type { Rating, Trigger } from "@waddle/protocol";
import type { ReactElement } from "react";
import { formatCost, formatCount, formatDuration } from "../../util/format-metrics.js";
import { formatStartTime } from "../../util/format-time.js";
import { HISTORY_FILTERS, type HistoryFilter, type RunHistoryRow } from "./run-history-rows.js";
import { TriggerFilter } from "./run-history-trigger-filter.js";

export interface RunHistoryListProps {
  rows: readonly RunHistoryRow[];
  /** How many runs the agent has at all (to tell "none yet" from "none under this filter"). */
  total: number;
  filter: HistoryFilter;
  counts: Readonly<Record<HistoryFilter, number>>;
  onFilter(filter: HistoryFilter): void;
  /** The run shown on the canvas, if any. */
  openRunId: string | null;
  onOpen(runId: string): void;
  /** Runs ticked for comparison (at most two). */
  picks: readonly string[];
  onTogglePick(runId: string): void;
  onCompare(): void;
  loading?: boolean;
  error?: string | null;
  /** Test cases' runs are listed too. */
  showTestRuns: boolean;
  onShowTestRuns(show: boolean): void;
  /** Only runs a public chat visitor rated so (null: any). */
  ratingFilter: Rating | null;
  onRatingFilter(rating: Rating | null): void;
  /** The agent's triggers, and only the runs one of them fired (null: any). */
  triggers: readonly Trigger[];
  triggerFilter: string | null;
  onTriggerFilter(triggerId: string | null): void;
}

/** The agent's runs with their figures, status chips and two picks to compare (presentational). */
export function RunHistoryList(props: RunHistoryListProps): ReactElement {
  const { rows, filter, picks } = props;
  return (
    <section className="run-history" data-testid="run-history" aria-label="Run history">
      <div className="run-history-filters" role="group" aria-label="Filter runs by status">
        {HISTORY_FILTERS.map((item) => (
          <button
            key={item.value}
            type="button"
            className={`run-filter-chip${item.value === filter ? " is-active" : ""}`}
            aria-pressed={item.value === filter}
            data-testid={`run-history-filter-${item.value}`}
            onClick={() => props.onFilter(item.value)}
          >
            {item.label}
            <span className="run-filter-count">{props.counts[item.value]}</span>
          </button>
        ))}
        <label
          className="run-history-tests-toggle"
          title="List the runs of test cases among the agent's runs"
        >
          <input
            type="checkbox"
            checked={props.showTestRuns}
            data-testid="run-history-show-tests"
            onChange={(event) => props.onShowTestRuns(event.currentTarget.checked)}
          />
          Show test runs
        </label>
        <RatingFilter value={props.ratingFilter} onChange={props.onRatingFilter} />
        <TriggerFilter
          triggers={props.triggers}
          value={props.triggerFilter}
          onChange={props.onTriggerFilter}
        />
      </div>
      {props.total > 1 ? (
        <div className="run-history-compare">
          <span className="run-history-compare-hint" role="status">
            {picks.length === 2
              ? "Two runs ticked."
              : picks.length === 1
                ? "Tick one more run to compare."
                : "Tick two runs to compare them."}
          </span>
          <button
            type="button"
            className="btn btn-small"
            data-testid="run-compare-button"
            disabled={picks.length !== 2}
            onClick={props.onCompare}
          >
            Compare
          </button>
        </div>
      ) : null}
      {props.error ? (
        <p className="empty-note is-error" role="alert">
          {props.error}
        </p>
      ) : props.loading && props.total === 0 ? (
        <p className="empty-note">Loading runs…</p>
      ) : props.total === 0 ? (
        <p className="empty-note">
          No runs of this agent yet. Runs started here, over REST or from the CLI show up live.
        </p>
      ) : rows.length === 0 ? (
        <p className="empty-note">No run matches this filter.</p>
      ) : (
        <ul className="run-history-list" role="list" aria-label="Runs, newest first">
          {rows.map((row) => (
            <RunHistoryItem
              key={row.id}
              row={row}
              open={row.id === props.openRunId}
              picked={picks.includes(row.id)}
              onOpen={props.onOpen}
              onTogglePick={props.onTogglePick}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function RunHistoryItem(props: {
  row: RunHistoryRow;
  open: boolean;
  picked: boolean;
  onOpen(runId: string): void;
  onTogglePick(runId: string): void;
}): ReactElement {
  const { row } = props;
  const start = formatStartTime(row.startedAt);
  const action = row.live ? "Watch" : "Replay";
  return (
    <li
      className={`run-history-item${props.open ? " is-open" : ""}${props.picked ? " is-picked" : ""}`}
      data-testid="run-history-item"
      data-run-id={row.id}
      data-status={row.status}
      data-trigger-id={row.trigger?.id}
    >
      <input
        type="checkbox"
        className="run-history-pick"
        checked={props.picked}
        aria-label={`Pick run ${row.id} to compare`}
        data-testid="run-history-pick"
        onChange={() => props.onTogglePick(row.id)}
      />
      <button
        type="button"
        className="run-history-open"
        aria-current={props.open ? "true" : undefined}
        title={`${action} this run on the canvas`}
        onClick={() => props.onOpen(row.id)}
      >
        <span className="runs-visually-hidden">{action} run: </span>
        <span className="run-history-head">
          <span className={`run-history-status is-${row.status}`} data-testid="run-history-status">
            {row.status}
          </span>
          <span className="run-history-time">{start || "not started"}</span>
          <DecisionMark count={row.edited} decision="edit" />
          <DecisionMark count={row.rejected} decision="reject" />
          <RatingMark rating={row.rating} comment={row.ratingComment} />
          <span className="run-history-tag">v{row.agentVersion}</span>
          {row.trigger ? (
            <span className="run-history-tag" data-testid="run-history-trigger-tag" title={row.trigger.id}>
              {row.trigger.kind}
            </span>
          ) : null}
          {row.offline ? <span className="run-history-tag">offline</span> : null}
          {row.test ? (
            <span className="run-history-tag" data-testid="run-history-test-tag">
              test
            </span>
          ) : null}
        </span>
        <span className="run-history-query">{row.query}</span>
        {row.ratingComment ? (
          <span className="run-history-comment" data-testid="run-history-comment">
            <span className="runs-visually-hidden">Visitor's comment: </span>“{row.ratingComment}”
          </span>
        ) : null}
        <span className="run-history-metrics">
          <Metric label="Duration" value={formatDuration(row.durationMs)} />
          <Metric label="Steps" value={row.steps === null ? "—" : String(row.steps)} />
          <Metric label="LLM calls" value={String(row.llmCalls)} />
          <Metric label="Tokens" value={formatCount(row.tokens)} />
          <Metric label="Cost" value={formatCost(row.costUsd)} />
        </span>
      </button>
    </li>
  );
}

const pauses = (count: number) => (count === 1 ? "a pause" : `${count} pauses`);

const DECISION_MARKS = {
  edit: { text: "edited", title: (count: number) => `Approved with edited args at ${pauses(count)}` },
  reject: { text: "rejected", title: (count: number) => `Rejected at ${pauses(count)}` },
} as const;

/** Marks a run a person steered: approved with an edit, or rejected (the record's `decisions`). */
function DecisionMark({
  count,
  decision,
}: {
  count: number;
  decision: "edit" | "reject";
}): ReactElement | null {
  if (count === 0) return null;
  const mark = DECISION_MARKS[decision];
  return (
    <span
      className={`run-history-decision is-${decision}`}
      data-testid="run-history-decision"
      data-decision={decision}
      title={mark.title(count)}
    >
      {mark.text}
      {count > 1 ? ` ×${count}` : ""}
    </span>
  );
}

function Metric({ label, value }: { label: string; value: string }): ReactElement {
  return (
    <span className="run-metric" title={label} data-testid="run-history-metric" data-metric={label}>
      <span className="run-metric-label">{label}</span>
      <span className="run-metric-value">{value}</span>
    </span>
  );
}

const RATING_OPTIONS = [
  { value: "", label: "Any rating" },
  { value: "up", label: "Rated up" },
  { value: "down", label: "Rated down" },
] as const;

/** Only the runs a public chat visitor rated up, or down (asked of the server: `?rating=`). */
function RatingFilter(props: { value: Rating | null; onChange(rating: Rating | null): void }): ReactElement {
  return (
    <label className="run-history-rating-filter" title="Runs of the public chat that a visitor rated">
      <span className="runs-visually-hidden">Rating</span>
      <select
        className="input"
        value={props.value ?? ""}
        data-testid="run-history-rating-filter"
        onChange={(event) => {
          const value = event.currentTarget.value;
          props.onChange(value === "up" || value === "down" ? value : null);
        }}
      >
        {RATING_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A public chat visitor's thumbs up or down on the run's answer. */
function RatingMark({
  rating,
  comment,
}: {
  rating: Rating | null;
  comment: string | null;
}): ReactElement | null {
  if (rating === null) return null;
  const text = rating === "up" ? "rated up" : "rated down";
  return (
    <span
      className={`run-history-rating is-${rating}`}
      data-testid="run-history-rating"
      data-rating={rating}
      title={`A visitor of the public chat ${text} this answer${comment ? `: “${comment}”` : ""}`}
    >
      {text}
    </span>
  );
}
