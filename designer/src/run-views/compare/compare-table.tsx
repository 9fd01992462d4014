import { useEffect, useRef, type ReactElement } from "react";
import {
  getCompareSummaryText,
  type CompareRow,
  type CompareStep,
  type RunComparison,
} from "../../runs/compare/compare-runs.js";
import { formatCost, formatCount, formatDuration } from "../../util/format-metrics.js";
import { getCompareTotals } from "./compare-totals.js";

export interface CompareSideLabel {
  runId: string;
  title: string;
  query: string;
  started: string;
}

/** Two runs side by side: their heads, totals with deltas, and the steps aligned (presentational). */
export function CompareTable(props: {
  comparison: RunComparison;
  left: CompareSideLabel;
  right: CompareSideLabel;
  /** One run is a fork of the other, from this step: the rows line up there (marked, scrolled to). */
  forkStep?: number;
  forkSide?: "A" | "B";
}): ReactElement {
  const { comparison, forkStep } = props;
  const totals = getCompareTotals(comparison);
  const diverges = comparison.divergesAt;
  return (
    <>
      <div className="compare-heads">
        <span />
        <CompareHead
          side={props.left}
          status={comparison.left.status}
          reason={comparison.left.finishReason}
        />
        <CompareHead
          side={props.right}
          status={comparison.right.status}
          reason={comparison.right.finishReason}
        />
      </div>
      <table className="compare-totals" data-testid="compare-totals">
        <caption className="runs-visually-hidden">Totals of A and B, and B minus A</caption>
        <thead>
          <tr>
            <th scope="col">Totals</th>
            <th scope="col">A</th>
            <th scope="col">B</th>
            <th scope="col">B − A</th>
          </tr>
        </thead>
        <tbody>
          {totals.map((metric) => (
            <tr key={metric.key}>
              <th scope="row">{metric.label}</th>
              <td>{metric.left}</td>
              <td>{metric.right}</td>
              <td>
                <span
                  className={`compare-delta is-${metric.delta.tone}`}
                  data-testid={`compare-delta-${metric.key}`}
                  title={metric.delta.tone === "same" ? "No difference" : `B is ${metric.delta.tone} than A`}
                >
                  {metric.delta.text}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p
        className={`compare-summary${diverges === null && comparison.editedAt === null ? "" : " is-diverged"}`}
        data-testid="compare-summary"
        data-edited-at={comparison.editedAt ?? undefined}
        role="status"
      >
        {getCompareSummaryText(comparison)}
      </p>
      {forkStep !== undefined ? (
        <p className="compare-fork-note" data-testid="compare-fork-point" data-step={forkStep}>
          {props.forkSide ?? "B"} was forked from {props.forkSide === "A" ? "B" : "A"} at step {forkStep + 1}
          {forkStep === 0
            ? ": it started over."
            : forkStep === 1
              ? ": step 1 is the same run, copied."
              : `: steps 1–${forkStep} are the same run, copied.`}
        </p>
      ) : null}
      <div className="compare-steps" role="table" aria-label="Steps of A and B, aligned">
        <div className="compare-row compare-row-head" role="row">
          <span className="compare-step-index" role="columnheader">
            #
          </span>
          <span className="compare-cell" role="columnheader">
            A
          </span>
          <span className="compare-cell" role="columnheader">
            B
          </span>
        </div>
        {comparison.rows.map((row) => (
          <CompareStepRow
            key={row.index}
            row={row}
            divergence={row.index === diverges}
            forkPoint={row.index === forkStep}
          />
        ))}
      </div>
    </>
  );
}

function CompareHead(props: { side: CompareSideLabel; status: string; reason: string | null }): ReactElement {
  return (
    <div className="compare-head" data-run-id={props.side.runId}>
      <span className="compare-head-title">
        {props.side.title}
        <span
          className={`compare-status is-${props.status}`}
          data-testid="compare-status"
          data-status={props.status}
        >
          {props.status}
        </span>
      </span>
      <span className="compare-head-query" title={props.side.query}>
        {props.side.query}
      </span>
      <span className="compare-cell-meta">
        {props.side.started}
        {props.reason ? ` · ${props.reason}` : ""}
      </span>
    </div>
  );
}

function CompareStepRow({
  row,
  divergence,
  forkPoint,
}: {
  row: CompareRow;
  divergence: boolean;
  forkPoint: boolean;
}): ReactElement {
  const className = `compare-row${row.same ? "" : " is-different"}${divergence ? " is-divergence" : ""}${forkPoint ? " is-fork-point" : ""}`;
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // aligned at the fork point: the comparison opens there
    if (forkPoint) ref.current?.scrollIntoView?.({ block: "center" });
  }, [forkPoint]);
  return (
    <div
      ref={ref}
      data-fork-point={forkPoint ? "true" : undefined}
      className={className}
      role="row"
      data-testid={divergence ? "compare-divergence" : "compare-row"}
      data-same={row.same}
      aria-label={`Step ${row.index + 1}${row.same ? ", same in both" : ", different"}${divergence ? ", where the runs part" : ""}`}
    >
      {divergence ? (
        <span className="compare-divergence-flag" role="note">
          Runs part here
        </span>
      ) : null}
      {forkPoint ? (
        <span className="compare-fork-flag" role="note">
          Fork point
        </span>
      ) : null}
      <span className="compare-step-index" role="rowheader">
        {row.index + 1}
      </span>
      <CompareCell step={row.left} />
      <CompareCell step={row.right} />
    </div>
  );
}

function CompareCell({ step }: { step: CompareStep | undefined }): ReactElement {
  if (!step)
    return (
      <span className="compare-cell is-empty" role="cell">
        no step
      </span>
    );
  const action = step.action ?? (step.tools.length > 0 ? step.tools.join(", ") : "—");
  const extraTools = step.action !== null && step.tools.length > 1 ? step.tools.join(", ") : null;
  const result = getStepResult(step);
  return (
    <span className="compare-cell" role="cell">
      <span className="compare-cell-main">
        <span className="compare-tool" title={extraTools ?? action}>
          {action}
        </span>
        {step.edited ? (
          <span
            className="timeline-flag is-edited"
            data-testid="compare-edited"
            title="A value written by a person when the run was forked: the tool did not produce it"
          >
            edited
          </span>
        ) : null}
        {/* an edited result was not the tool's: "ok" would say it ran and succeeded */}
        {result && !(step.edited && result === "succeeded") ? (
          <span className={`compare-status is-${result}`}>
            {result === "failed"
              ? `${step.failures} failed`
              : result === "skipped"
                ? "not run"
                : result === "rejected"
                  ? "rejected"
                  : "ok"}
          </span>
        ) : null}
      </span>
      <span className="compare-cell-meta">
        {[
          step.source && step.source !== "llm" ? step.source.replaceAll("_", "-") : null,
          `${step.llmCalls} LLM`,
          `${formatCount(step.tokens)} tok`,
          step.costUsd > 0 ? formatCost(step.costUsd) : null,
          formatDuration(step.durationMs),
        ]
          .filter(Boolean)
          .join(" · ")}
      </span>
    </span>
  );
}

/** A step's outcome: a person rejected its call, its tool calls failed or succeeded, or its tool never ran. */
function getStepResult(step: CompareStep): "rejected" | "failed" | "succeeded" | "skipped" | null {
  if (step.rejected) return "rejected";
  if (step.failures > 0) return "failed";
  if (step.tools.length > 0) return "succeeded";
  if (step.action !== null && step.action !== "final_response" && step.action !== "parallel")
    return "skipped";
  return null;
}
