import { FinalPayload, type PendingPause, type RunRecord } from "@waddle/protocol";
import type { PlannerOutcome } from "@waddle/planner";
import type { Logger } from "../shared/logger.js";
import type { RunPatch, WaddleStore } from "../store/waddle-store.js";
import type { RunEventHub } from "./run-event-hub.js";
import type { RunRecorder, ServerEvent } from "./run-recorder.js";

/** Longest message of an error outside the planner that goes into a `run_failed` event. */
const MAX_CRASH_MESSAGE = 300;

/** The `run_finished` (reason `cancelled`) the server writes for a run the planner did not finish itself. */
export function cancelledEvent(run: RunRecord, answer: string): ServerEvent {
  // A paused run has done work: its steps and time are in the pause's metadata (a queued one did none).
  const done = run.result?.kind === "pause" ? run.result.metadata : undefined;
  return {
    type: "run_finished",
    data: {
      reason: "cancelled",
      payload: FinalPayload.parse({ answer }),
      metadata: {
        steps: done?.steps ?? 0,
        llmCalls: run.usage.llmCalls,
        autoSeqSavedCalls: done?.autoSeqSavedCalls ?? 0,
        usage: run.usage,
        durationMs: done?.durationMs ?? 0,
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

/**
 * Writes how a run ended when its planner threw: the cancel's `run_finished` when the run was cancelled,
 * else a `run_failed` with the error's code (logged too). The caller has checked the recorder may write.
 */
export async function recordPlannerError(options: {
  run: RunRecord;
  recorder: RunRecorder;
  error: unknown;
  cancelled: boolean;
  logger: Logger;
}): Promise<void> {
  const { run, recorder } = options;
  if (options.cancelled) {
    await recorder.append(cancelledEvent(run, "The run was cancelled."));
    return;
  }
  const failure = toFailure(options.error);
  options.logger.warn("run failed", { runId: run.id, code: failure.code, message: failure.message });
  await recorder.append({ type: "run_failed", data: { error: failure } });
}

/**
 * The run's row after the planner returned: its events normally set this already. `recorded`: the pause its
 * `pause` event recorded, kept when it is this one (it holds when the run paused and its due time).
 */
export function getOutcomePatch(outcome: PlannerOutcome, recorded?: PendingPause): RunPatch {
  if (outcome.kind === "pause") {
    const { reason, payload, resumeToken } = outcome;
    return {
      status: "paused",
      pause: recorded?.resumeToken === resumeToken ? recorded : { reason, payload, resumeToken },
      result: outcome,
    };
  }
  return {
    status: outcome.reason === "cancelled" ? "cancelled" : "finished",
    result: outcome,
    usage: outcome.metadata.usage,
    pause: null,
    finishedAt: new Date().toISOString(),
  };
}

/**
 * Records an error that escaped a run's own handling (a store that throws while the run is read or set
 * up), and never throws itself: logs it, then marks the run failed with a `run_failed` event when the store
 * lets it, else its row alone, else leaves it to `recoverRuns` at the next start.
 */
export async function markRunCrashed(options: {
  runId: string;
  error: unknown;
  recorder: () => Promise<RunRecorder>;
  store: WaddleStore;
  hub: RunEventHub;
  logger: Logger;
}): Promise<void> {
  const { runId, logger } = options;
  const failure = toFailure(options.error);
  logger.error("run crashed outside the planner", { runId, code: failure.code, message: failure.message });
  const message = `The server could not go on with this run: ${failure.message}`.slice(0, MAX_CRASH_MESSAGE);
  const error = { code: failure.code, message };
  try {
    const recorder = await options.recorder();
    await recorder.flush();
    if (!recorder.isSealed) await recorder.append({ type: "run_failed", data: { error } });
    if (recorder.isSealed) return;
    // The event could not be stored: the row at least, so that the run does not look alive.
    const run = await options.store.updateRun(runId, {
      status: "failed",
      error,
      pause: null,
      finishedAt: new Date().toISOString(),
    });
    options.hub.publishStatus({ runId, status: "failed", lastSeq: run.lastSeq ?? 0 });
  } catch (second) {
    logger.error("run could not be marked failed", { runId, error: String(second) });
  }
}
