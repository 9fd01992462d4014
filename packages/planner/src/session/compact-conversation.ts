import type { Usage } from "@waddle/protocol";
import type { LlmClient, LlmResult } from "../llm/llm-client.js";
import type { TrajectoryStepInput } from "../trajectory/rule-based-compressor.js";
import { summarizeTrajectory, type SummaryMethod } from "../trajectory/trajectory-summarizer.js";
import { estimateJsonTokens } from "../util/token-estimate.js";
import { getSessionContextMeta, type ConversationTurn, type SessionContext } from "./session-context.js";

/** The share of the agent's token budget that a session's context may take before it is compacted. */
export const SESSION_CONTEXT_BUDGET_SHARE = 0.5;
/** The budget when the agent sets no token budget. */
export const DEFAULT_SESSION_CONTEXT_TOKENS = 16_000;

export interface CompactConversationOptions {
  context: SessionContext;
  /** The agent's `planner.tokenBudget`, if any: the context may take `SESSION_CONTEXT_BUDGET_SHARE` of it. */
  tokenBudget?: number;
  /** The summarizer (`summarizerLlm`, else the agent's); without it only the rule-based path runs. */
  llm?: LlmClient;
  signal?: AbortSignal;
  onLlmCall?: (result: LlmResult) => void;
}

export interface CompactedConversation {
  context: SessionContext;
  /** Set when older turns were folded into the summary. */
  compaction?: {
    throughTurn: number;
    method: SummaryMethod;
    tokensBefore: number;
    tokensAfter: number;
    usage?: Usage;
  };
}

/**
 * Keeps a session's context within its budget: when the context (as `getSessionContextMeta` writes it)
 * is over, the oldest turns — and the summary they add to — are folded into one summary with the
 * trajectory summarizer (rule-based first, then the LLM when the rule-based one would drop detail), until
 * it fits or only the newest turn is left verbatim. The newest turn is never folded.
 */
export async function compactConversation(
  options: CompactConversationOptions,
): Promise<CompactedConversation> {
  const budget = getSessionContextBudget(options.tokenBudget);
  const { context } = options;
  const before = estimateJsonTokens(getSessionContextMeta(context));
  if (before <= budget || context.turns.length <= 1) return { context };
  // Fold the oldest turns until what stays verbatim takes at most half the budget (the summary the rest).
  const verbatimBudget = Math.floor(budget / 2);
  let keep = context.turns.length;
  let kept = 0;
  while (keep > 1) {
    const tokens = estimateJsonTokens(context.turns[keep - 1]);
    if (kept + tokens > verbatimBudget) break;
    kept += tokens;
    keep -= 1;
  }
  // The newest turn always stays verbatim, even alone over its share: the rest is folded then.
  keep = Math.min(Math.max(keep, 1), context.turns.length - 1);
  const folded = context.turns.slice(0, keep);
  const remaining = context.turns.slice(keep);
  const steps: TrajectoryStepInput[] = [
    ...(context.summary ? [{ next_node: "earlier_turns_summary", observation: context.summary.state }] : []),
    ...folded.map(toStep),
  ];
  const summarized = await summarizeTrajectory({
    query: "The conversation so far (earlier turns of this chat)",
    steps,
    budget: Math.max(64, budget - estimateJsonTokens(remaining)),
    todos: context.openTodos,
    ...(options.llm ? { llm: options.llm } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onLlmCall ? { onLlmCall: options.onLlmCall } : {}),
  });
  const throughTurn = folded.at(-1)!.turn;
  const compacted: SessionContext = {
    ...context,
    turns: remaining,
    summary: { throughTurn, state: summarized.summary },
  };
  return {
    context: compacted,
    compaction: {
      throughTurn,
      method: summarized.method,
      tokensBefore: before,
      tokensAfter: estimateJsonTokens(getSessionContextMeta(compacted)),
      ...(summarized.usage ? { usage: summarized.usage } : {}),
    },
  };
}

/** The tokens a session's context may take for an agent with this `tokenBudget`. */
export function getSessionContextBudget(tokenBudget: number | undefined): number {
  return tokenBudget === undefined
    ? DEFAULT_SESSION_CONTEXT_TOKENS
    : Math.max(256, Math.floor(tokenBudget * SESSION_CONTEXT_BUDGET_SHARE));
}

function toStep(turn: ConversationTurn): TrajectoryStepInput {
  return {
    next_node: `turn_${turn.turn}`,
    args: { user: turn.query },
    observation: { assistant: turn.answer ?? `(no answer: the turn ${turn.status ?? "ended"})` },
  };
}
