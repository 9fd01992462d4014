import type { Usage } from "@waddle/protocol";
import { clipText } from "../util/compact-value.js";
import type { LlmClient, LlmMessage, LlmResult } from "../llm/llm-client.js";
import { parseLlmJson } from "../llm/parse-llm-json.js";
import {
  compressTrajectory,
  type CompressTrajectoryOptions,
  INFORMATIVE_LEVELS,
} from "./rule-based-compressor.js";
import { TrajectorySummary } from "../run/trajectory-summary.js";
import { CHARS_PER_TOKEN, estimateJsonTokens, estimateTokens } from "../util/token-estimate.js";

export interface SummarizeTrajectoryOptions extends CompressTrajectoryOptions {
  /** The summarizer LLM (`summarizerLlm`, else the main one); without it only the rule-based path runs. */
  llm?: LlmClient;
  /** Repairs of an unusable summarizer reply; clamped to 1–2 (docs/summarization.md). */
  repairAttempts?: number;
  signal?: AbortSignal;
  /** Called after each summarizer call, e.g. to emit `llm_call` and count usage. */
  onLlmCall?: (result: LlmResult) => void;
  /**
   * The caller's own estimate of the uncompacted size, reported as `before_tokens`. Saves estimating the
   * whole trajectory again, which costs as much as writing it out as JSON (a loop compacting on every step
   * of a long run must not pay that each time).
   */
  beforeTokens?: number;
}

export type SummaryMethod = "rule_based" | "llm" | "rule_based_fallback";

export interface TrajectorySummaryResult {
  summary: TrajectorySummary;
  method: SummaryMethod;
  /** Estimated tokens of the full trajectory (query and steps as JSON). */
  before_tokens: number;
  /** Estimated tokens of `summary` as JSON. */
  after_tokens: number;
  /** Why the summary is less than it should be (fallback, hard truncation). */
  summary_note?: string;
  /** Summed over summarizer calls, when there were any. */
  usage?: Usage;
}

/** The summarizer may read this many times the budget; the rule-based draft is cut to it first. */
const DRAFT_BUDGET_FACTOR = 4;
const MAX_REPLY_ECHO_CHARS = 2_000;

/**
 * Compacts a trajectory under a token budget: the rule-based compressor first; when it can only fit by
 * dropping real detail and an LLM is given, a short JSON-only summarizer prompt validated with zod, with
 * 1–2 repairs; if those fail, the rule-based state with a `summary_note`.
 */
export async function summarizeTrajectory(
  options: SummarizeTrajectoryOptions,
): Promise<TrajectorySummaryResult> {
  const before = options.beforeTokens ?? estimateTrajectoryTokens(options);
  const rule = compressTrajectory(options);
  const ruleResult = (method: SummaryMethod, note?: string): TrajectorySummaryResult => {
    const notes = [
      note,
      rule.fits ? undefined : `budget of ${options.budget} tokens is below the minimum summary`,
    ];
    const summaryNote = notes.filter((item) => item !== undefined).join("; ");
    return {
      summary: rule.summary,
      method,
      before_tokens: before,
      after_tokens: rule.tokens,
      ...(summaryNote.length > 0 ? { summary_note: summaryNote } : {}),
    };
  };
  if (rule.level < INFORMATIVE_LEVELS || options.llm === undefined) {
    const lossy =
      rule.level >= INFORMATIVE_LEVELS ? "rule-based truncation dropped detail to fit" : undefined;
    return ruleResult("rule_based", lossy);
  }
  const outcome = await askSummarizer({ ...options, llm: options.llm });
  if (outcome.summary !== undefined) {
    return {
      summary: outcome.summary,
      method: "llm",
      before_tokens: before,
      after_tokens: estimateJsonTokens(outcome.summary),
      usage: outcome.usage,
    };
  }
  return { ...ruleResult("rule_based_fallback", outcome.note), usage: outcome.usage };
}

/** Estimated tokens of the uncompressed trajectory, step by step (no giant string is built). */
export function estimateTrajectoryTokens(options: { query: string; steps: readonly unknown[] }): number {
  let tokens = estimateTokens(options.query);
  for (const step of options.steps) tokens += estimateJsonTokens(step);
  return tokens;
}

interface SummarizerOutcome {
  summary?: TrajectorySummary;
  note?: string;
  usage: Usage;
}

async function askSummarizer(
  options: SummarizeTrajectoryOptions & { llm: LlmClient },
): Promise<SummarizerOutcome> {
  const draft = compressTrajectory({ ...options, budget: options.budget * DRAFT_BUDGET_FACTOR });
  const maxChars = options.budget * CHARS_PER_TOKEN;
  const messages: LlmMessage[] = [
    { role: "system", content: getSummarizerPrompt(maxChars) },
    { role: "user", content: JSON.stringify(draft.summary) },
  ];
  const usage: Usage = { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0, llmCalls: 0 };
  const attempts = 1 + Math.min(2, Math.max(1, options.repairAttempts ?? 1));
  let problem = "";
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    let result: LlmResult;
    try {
      result = await options.llm.complete({
        messages,
        responseFormat: "json_object",
        purpose: attempt === 1 ? "summarize" : "repair",
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted === true) throw error;
      const message = error instanceof Error ? error.message : String(error);
      return {
        note: `summarizer call failed (${clipText(message, 160)}); used rule-based truncation`,
        usage,
      };
    }
    addUsage(usage, result);
    options.onLlmCall?.(result);
    const checked = checkSummary(result.content, options.budget);
    if (typeof checked !== "string") return { summary: checked, usage };
    problem = checked;
    messages.push(
      { role: "assistant", content: clipText(result.content, MAX_REPLY_ECHO_CHARS) },
      { role: "user", content: `That reply is not usable: ${problem}. ${getRepairInstruction(maxChars)}` },
    );
  }
  return {
    note: `summarizer reply unusable after ${attempts - 1} repair attempt(s) (${problem}); used rule-based truncation`,
    usage,
  };
}

function checkSummary(content: string, budget: number): TrajectorySummary | string {
  const json = parseLlmJson(content);
  if (json === undefined) return "it is not a JSON object";
  const parsed = TrajectorySummary.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${issue?.path.join(".") || "reply"}: ${issue?.message ?? "does not match the schema"}`;
  }
  const tokens = estimateJsonTokens(parsed.data);
  if (tokens > budget) return `it is about ${tokens} tokens, over the ${budget}-token budget`;
  return parsed.data;
}

function getSummarizerPrompt(maxChars: number): string {
  return (
    "You compress an agent's working state so that it can keep planning. The user message is the state " +
    "as JSON. Reply with JSON only, exactly this shape: " +
    '{"goals": [string], "facts": {name: value}, "pending": [string], "last_output_digest": string}. ' +
    "Keep the goals, the facts the next steps need (ids, numbers, names, results) and what is still " +
    `pending; drop repetition and raw data. The whole reply must fit in ${maxChars} characters.`
  );
}

function getRepairInstruction(maxChars: number): string {
  return (
    'Reply again with only the JSON object {"goals", "facts", "pending", "last_output_digest"}, ' +
    `in at most ${maxChars} characters.`
  );
}

function addUsage(usage: Usage, result: LlmResult): void {
  usage.llmCalls += 1;
  usage.promptTokens += result.usage?.promptTokens ?? 0;
  usage.completionTokens += result.usage?.completionTokens ?? 0;
  usage.reasoningTokens += result.usage?.reasoningTokens ?? 0;
  usage.costUsd += result.costUsd ?? 0;
}
