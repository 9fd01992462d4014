import type { FinalPayload, FinalResponseArgs } from "@waddle/protocol";
import { truncateText } from "../util/create-preview.js";
import type { TrajectoryStep } from "./run-state.js";

const DIGEST_CHARS = 600;

/** Keys of `final_response` args that the payload has a field for; the others go to its `extra`. */
export const FINAL_ARG_KEYS: ReadonlySet<string> = new Set([
  "answer",
  "raw_answer",
  "artifacts",
  "sources",
  "suggested_actions",
  "confidence",
  "language",
  "requires_followup",
  "extra",
]);

/**
 * The typed final payload from validated `final_response` args. `answer` wins over a different
 * `raw_answer` (its legacy synonym, as in PenguiFlow's `answer_text()`), which is then kept under
 * `extra.raw_answer`. Keys with no field, an `extra` object's keys, and `invalid` fields that did not
 * validate are kept under `extra` (docs/empty-final-answer.md).
 */
export function createFinalPayload(
  args: FinalResponseArgs,
  fallbackAnswer = "",
  invalid?: Readonly<Record<string, unknown>>,
): FinalPayload {
  const raw = hasText(args.raw_answer) ? args.raw_answer : undefined;
  const written = hasText(args.answer) ? args.answer : raw;
  const payload: FinalPayload = {
    answer: written ?? fallbackAnswer,
    artifacts: args.artifacts ?? {},
    sources: args.sources ?? [],
    suggested_actions: args.suggested_actions ?? [],
    requires_followup: args.requires_followup ?? false,
  };
  if (args.confidence !== undefined) payload.confidence = args.confidence;
  if (args.language !== undefined) payload.language = args.language;
  let extra: Record<string, unknown> | undefined;
  const given = args.extra;
  if (typeof given === "object" && given !== null && !Array.isArray(given)) extra = { ...given };
  else if (given !== undefined) extra = { extra: given };
  if (raw !== undefined && written !== raw) extra = { ...extra, raw_answer: raw };
  for (const key in args) {
    if (!FINAL_ARG_KEYS.has(key)) (extra ??= {})[key] = args[key];
  }
  if (invalid !== undefined) extra = { ...extra, ...invalid };
  if (extra !== undefined && Object.keys(extra).length > 0) payload.extra = extra;
  return payload;
}

function hasText(value: string | undefined): value is string {
  return value !== undefined && value.trim().length > 0;
}

/** The keys of a source that name it: matched against what the run's tools returned. */
const SOURCE_KEYS = ["url", "href", "link", "uri", "id", "doc_id", "document_id", "title", "source", "name"];

/**
 * Sources the model cites are kept; those that nothing the run's tools returned mentions are marked
 * `model_provided: true`, so that a reader can tell a citation the run collected from one the model wrote.
 */
export function markModelSources(
  sources: Record<string, unknown>[],
  steps: readonly TrajectoryStep[],
): Record<string, unknown>[] {
  if (sources.length === 0) return sources;
  let collected: string | undefined;
  return sources.map((source) => {
    const names = SOURCE_KEYS.map((key) => source[key]).filter(
      (value): value is string | number =>
        (typeof value === "string" && value.trim().length > 2) || typeof value === "number",
    );
    collected ??= JSON.stringify(steps.map((step) => [step.observation, step.branches, step.join]));
    const text = collected;
    const found = names.some((name) => text.includes(JSON.stringify(String(name)).slice(1, -1)));
    return found ? source : { ...source, model_provided: true };
  });
}

/**
 * The payload of a run that ends without an answer from the LLM (budget, max_iters, cancelled, repeated
 * invalid args): says why, shows the latest result so that nothing is lost, and asks for a follow-up.
 */
export function createFallbackPayload(input: {
  message: string;
  steps: readonly TrajectoryStep[];
  requiresFollowup?: boolean;
}): FinalPayload {
  const digest = getLastResultDigest(input.steps);
  const answer = digest === undefined ? input.message : `${input.message}\n\nLatest result: ${digest}`;
  return {
    answer,
    artifacts: {},
    sources: [],
    suggested_actions: [],
    requires_followup: input.requiresFollowup ?? true,
  };
}

/** The latest successful observation as short text, for answers the LLM did not write. */
export function getLastResultDigest(steps: readonly TrajectoryStep[]): string | undefined {
  for (let index = steps.length - 1; index >= 0; index -= 1) {
    const step = steps[index];
    if (step === undefined || step.failure !== undefined || step.observation === undefined) continue;
    const text = typeof step.observation === "string" ? step.observation : JSON.stringify(step.observation);
    return truncateText(text, DIGEST_CHARS);
  }
  return undefined;
}
