import type { FinalPayload, FinalResponseArgs } from "@waddle/protocol";
import { truncateText } from "../util/create-preview.js";
import type { TrajectoryStep } from "./run-state.js";

const DIGEST_CHARS = 600;

/** The typed final payload from validated `final_response` args (`raw_answer` already folded in). */
export function createFinalPayload(args: FinalResponseArgs, fallbackAnswer = ""): FinalPayload {
  const answer = args.answer ?? args.raw_answer ?? fallbackAnswer;
  const payload: FinalPayload = {
    answer: answer.trim().length > 0 ? answer : fallbackAnswer,
    artifacts: args.artifacts ?? {},
    sources: args.sources ?? [],
    suggested_actions: args.suggested_actions ?? [],
    requires_followup: args.requires_followup ?? false,
  };
  if (args.confidence !== undefined) payload.confidence = args.confidence;
  if (args.language !== undefined) payload.language = args.language;
  return payload;
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
