import { type CompactLimits, clipText, compactValue, getValueDigest } from "../util/compact-value.js";
import { estimateJsonTokens } from "../util/token-estimate.js";
import type { TrajectorySummary } from "../run/trajectory-summary.js";

/** One step as the compressor needs it; flatten parallel branches into steps of their own if useful. */
export interface TrajectoryStepInput {
  next_node: string;
  args?: unknown;
  observation?: unknown;
  failure?: { error_code: string; message: string };
}

export interface CompressTrajectoryOptions {
  query: string;
  steps: readonly TrajectoryStepInput[];
  /** Token budget for the summary itself (as `estimateJsonTokens` counts it). */
  budget: number;
  /** Open todos become `pending` entries. */
  todos?: readonly { content: string; status: string }[];
}

export interface CompressedTrajectory {
  summary: TrajectorySummary;
  tokens: number;
  /** 0 = the most detailed level that fit; levels at or past `INFORMATIVE_LEVELS` drop real detail. */
  level: number;
  /** False only when even the bare skeleton is over the budget. */
  fits: boolean;
}

interface Level {
  goalChars: number;
  factTools: number;
  limits: CompactLimits;
  pending: number;
  pendingChars: number;
  digestChars: number;
}

const level = (goalChars: number, factTools: number, limits: [number, number, number, number]) => {
  const [maxString, maxArray, maxKeys, maxDepth] = limits;
  const pending = Math.max(1, Math.min(8, factTools));
  return {
    goalChars,
    factTools,
    limits: { maxString, maxArray, maxKeys, maxDepth },
    pending,
    pendingChars: Math.max(60, maxString),
    digestChars: Math.max(40, maxString * 2),
  } satisfies Level;
};

/** From most to least detailed; the first that fits the budget wins. */
const LEVELS: readonly Level[] = [
  level(1_000, 24, [300, 8, 12, 3]),
  level(600, 16, [200, 5, 8, 2]),
  level(400, 10, [120, 3, 6, 2]),
  level(300, 6, [80, 2, 4, 1]),
  level(200, 3, [48, 1, 3, 1]),
  level(120, 1, [32, 1, 2, 0]),
  level(80, 0, [20, 0, 0, 0]),
];

/** Levels below this keep the facts useful for re-planning; past it the summarizer LLM is worth a call. */
export const INFORMATIVE_LEVELS = 3;

/**
 * Turns a trajectory into `{goals, facts, pending, last_output_digest}` and truncates it deterministically,
 * level by level, until it fits `budget` tokens. `facts` holds the run's counts and the latest result of
 * each tool (most recent first); `pending` the failures not yet recovered from and the open todos.
 */
export function compressTrajectory(options: CompressTrajectoryOptions): CompressedTrajectory {
  for (const [index, settings] of LEVELS.entries()) {
    const summary = buildSummary(options, settings);
    const tokens = estimateJsonTokens(summary);
    if (tokens <= options.budget) return { summary, tokens, level: index, fits: true };
  }
  // Last resort: the goal alone, cut to whatever room the skeleton leaves.
  const skeleton: TrajectorySummary = {
    goals: [],
    facts: { steps_done: options.steps.length },
    pending: [],
    last_output_digest: "",
  };
  const room = options.budget * 4 - (JSON.stringify(skeleton).length + 4);
  if (room > 8) skeleton.goals.push(clipText(options.query, room));
  const tokens = estimateJsonTokens(skeleton);
  return { summary: skeleton, tokens, level: LEVELS.length, fits: tokens <= options.budget };
}

function buildSummary(options: CompressTrajectoryOptions, settings: Level): TrajectorySummary {
  const { steps } = options;
  const last = steps.at(-1);
  return {
    goals: [clipText(options.query.replace(/\s+/g, " ").trim(), settings.goalChars)],
    facts: buildFacts(steps, settings),
    pending: buildPending(options, settings),
    last_output_digest:
      last === undefined
        ? ""
        : getValueDigest(
            last.failure === undefined
              ? last.observation
              : `${last.next_node} failed (${last.failure.error_code}): ${last.failure.message}`,
            settings.digestChars,
          ),
  };
}

function buildFacts(steps: readonly TrajectoryStepInput[], settings: Level): Record<string, unknown> {
  const calls = new Map<string, number>();
  let failed = 0;
  for (const step of steps) {
    calls.set(step.next_node, (calls.get(step.next_node) ?? 0) + 1);
    if (step.failure !== undefined) failed += 1;
  }
  const results = new Map<string, unknown>();
  for (let index = steps.length - 1; index >= 0 && results.size < settings.factTools; index -= 1) {
    const step = steps[index]!;
    if (step.failure !== undefined || results.has(step.next_node)) continue;
    results.set(step.next_node, compactValue(step.observation, settings.limits));
  }
  const facts: Record<string, unknown> = { steps_done: steps.length, failed_steps: failed };
  if (settings.factTools > 0) {
    facts["calls"] = compactValue(Object.fromEntries(calls), { ...settings.limits, maxDepth: 1 });
  }
  if (results.size > 0) facts["latest_results"] = Object.fromEntries(results);
  return facts;
}

function buildPending(options: CompressTrajectoryOptions, settings: Level): string[] {
  const pending: string[] = [];
  const recovered = new Set<string>();
  for (let index = options.steps.length - 1; index >= 0; index -= 1) {
    const step = options.steps[index]!;
    if (step.failure === undefined) {
      recovered.add(step.next_node);
    } else if (!recovered.has(step.next_node)) {
      recovered.add(step.next_node);
      pending.push(
        `recover from ${step.next_node} failure (${step.failure.error_code}): ${step.failure.message}`,
      );
    }
  }
  for (const todo of options.todos ?? []) {
    if (todo.status !== "completed") pending.push(`todo (${todo.status}): ${todo.content}`);
  }
  return pending
    .slice(0, settings.pending)
    .map((item) => clipText(item.replace(/\s+/g, " "), settings.pendingChars));
}
