import type { LlmMessage } from "../../llm/llm-client.js";
import type { RunContext } from "../run-context.js";
import { scrubSecrets } from "../../secrets/secret-scrubber.js";
import { estimateTokens } from "../../util/token-estimate.js";
import { summarizeTrajectory } from "../../trajectory/trajectory-summarizer.js";
import { createSummaryMessage, getStepMessages } from "../../trajectory/trajectory-messages.js";

/** The latest steps stay verbatim, up to this many, when they fit in a third of the room. */
const MAX_TAIL_STEPS = 4;
/** The summary message's own keys and note, around the summary JSON. */
const SUMMARY_FRAMING_TOKENS = 60;
/** Below this the summary could not say anything useful: the budget check ends the run instead. */
const MIN_SUMMARY_TOKENS = 60;

/** Room kept free under the budget for one repair exchange (an echoed reply and its error). */
export function getRepairReserve(budget: number): number {
  return Math.min(600, Math.floor(budget / 8));
}

/**
 * Summarization in the message builder (docs/summarization.md): when the prompt is over `tokenBudget`, the
 * steps before the latest few are replaced by one summary message — the rule-based compressor first, the
 * summarizer LLM (`summarizerLlm`, else the main one) when that would lose real detail — sized so that the
 * prompt fits the budget less a repair reserve. The summary is kept in the run state (`state.summary`),
 * so a resumed run rebuilds the same prompt. Emits `summary_compacted`. Leaves the prompt as it is when
 * even the system prompt and the query do not fit; the budget check then ends the run.
 */
export async function compactHistory(
  run: Pick<RunContext, "config" | "state" | "messages" | "events" | "llmCaller" | "secrets" | "signal">,
  budget: number,
): Promise<void> {
  const { state, messages, config } = run;
  const steps = state.steps;
  if (steps.length === 0) return;
  const before = messages.estimatedTokens;
  const room = budget - getRepairReserve(budget) - messages.headTokens;
  let tail: LlmMessage[] = [];
  let tailTokens = 0;
  let kept = 0;
  // At least one step is always summarized: otherwise there is nothing to compact.
  while (kept < Math.min(MAX_TAIL_STEPS, steps.length - 1)) {
    const stepMessages = getStepMessages(steps[steps.length - kept - 1]!);
    const tokens = estimateTokens(stepMessages);
    if (tailTokens + tokens > room / 3) break;
    tail = stepMessages.concat(tail);
    tailTokens += tokens;
    kept += 1;
  }
  const covered = steps.length - kept;
  const summaryBudget = room - tailTokens - SUMMARY_FRAMING_TOKENS;
  if (summaryBudget < MIN_SUMMARY_TOKENS) return;
  const llm = config.summarizerLlm ?? config.llm;
  let mark = config.clock();
  const result = await summarizeTrajectory({
    query: scrubSecrets(state.query, run.secrets),
    steps: steps.slice(0, covered),
    budget: summaryBudget,
    ...(state.todos === undefined ? {} : { todos: state.todos.todos }),
    llm,
    repairAttempts: Math.max(1, Math.min(2, config.options.repairAttempts)),
    signal: run.signal,
    beforeTokens: before,
    onLlmCall: (reply) => {
      const now = config.clock();
      run.llmCaller.recordCall({
        llm,
        result: reply,
        latencyMs: Math.max(0, now - mark),
        purpose: "summarize",
      });
      mark = now;
    },
  });
  state.summary = { summary: result.summary, coveredSteps: covered };
  messages.replaceHistory([createSummaryMessage(result.summary, covered), ...tail]);
  run.events.emit("summary_compacted", {
    before_tokens: before,
    after_tokens: messages.estimatedTokens,
    method: result.method,
    ...(result.summary_note === undefined ? {} : { summary_note: result.summary_note }),
  });
}
