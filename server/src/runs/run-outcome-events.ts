import { FinalPayload, type RunRecord } from "@waddle/protocol";
import type { ServerEvent } from "./run-recorder.js";

/** The `run_finished` (reason `cancelled`) the server writes for a run the planner did not finish itself. */
export function cancelledEvent(run: RunRecord, answer: string): ServerEvent {
  return {
    type: "run_finished",
    data: {
      reason: "cancelled",
      payload: FinalPayload.parse({ answer }),
      metadata: {
        steps: 0,
        llmCalls: run.usage.llmCalls,
        autoSeqSavedCalls: 0,
        usage: run.usage,
        durationMs: 0,
      },
    },
  };
}

/** `{code, message}` of anything thrown by a planner or a tool kind. */
export function toFailure(error: unknown): { code: string; message: string } {
  if (
    error !== null &&
    typeof error === "object" &&
    "code" in error &&
    typeof (error as { code: unknown }).code === "string"
  ) {
    const message = (error as { message?: unknown }).message;
    return {
      code: (error as { code: string }).code,
      message: typeof message === "string" ? message : String(error),
    };
  }
  return { code: "internal", message: error instanceof Error ? error.message : String(error) };
}
