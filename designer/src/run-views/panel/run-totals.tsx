import { getRunTokens } from "@waddle/protocol";
import type { ReactElement } from "react";
import type { RunTotals as Totals } from "../../runs/fold/run-view.js";
import { formatCost, formatCount, formatDuration } from "../../util/format-metrics.js";

/** One line of run totals; `auto-seq-saved` counts the LLM calls auto-seq made unnecessary. */
export function RunTotals({ totals, elapsedMs }: { totals: Totals; elapsedMs: number }): ReactElement {
  const tokens = getRunTokens(totals);
  return (
    <dl className="run-totals" aria-label="Run totals">
      <div>
        <dt>Steps</dt>
        <dd data-testid="run-steps">{totals.steps}</dd>
      </div>
      <div>
        <dt>LLM calls</dt>
        <dd data-testid="run-llm-calls">{totals.llmCalls}</dd>
      </div>
      <div
        title={`${totals.promptTokens} prompt + ${totals.completionTokens} completion (of which ${totals.reasoningTokens} reasoning)`}
      >
        <dt>Tokens</dt>
        <dd data-testid="run-tokens">{formatCount(tokens)}</dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd data-testid="run-cost">{formatCost(totals.costUsd)}</dd>
      </div>
      <div>
        <dt>Time</dt>
        <dd data-testid="run-elapsed">{formatDuration(elapsedMs)}</dd>
      </div>
      <div title="LLM calls auto-seq saved: steps that followed a unique auto-seq edge without asking the model">
        <dt>Saved by auto-seq</dt>
        <dd data-testid="auto-seq-saved" data-value={totals.autoSeqSaved}>
          {totals.autoSeqSaved} LLM call{totals.autoSeqSaved === 1 ? "" : "s"}
        </dd>
      </div>
    </dl>
  );
}
