import { ResumeConflictDetails } from "@waddle/protocol";
import type { RunsApi } from "../api/runs-api.js";
import { getErrorMessage, isApiError } from "../api/api-error.js";
import { getConflictMessage } from "./get-conflict-message.js";
import type { ResumeInput } from "./run-store-state.js";

/** What became of a decision sent: taken, answered already elsewhere (`conflict`), or refused otherwise. */
export type SentResumeDecision =
  | { ok: true }
  | { ok: false; message: string; conflict: ResumeConflictDetails }
  | { ok: false; message: string; conflict?: undefined; status409: boolean };

/**
 * Sends a person's decision on a paused run (`POST /api/runs/:id/resume`), for the Run tab and the chat
 * alike: a 409 that says the pause was answered already comes back as `conflict`, in words.
 */
export async function sendResumeDecision(
  api: Pick<RunsApi, "resumeRun">,
  runId: string,
  resumeToken: string,
  input: ResumeInput,
): Promise<SentResumeDecision> {
  try {
    await api.resumeRun(runId, {
      resumeToken,
      decision: input.decision,
      ...(input.args === undefined ? {} : { args: input.args }),
      ...(input.userInput ? { userInput: input.userInput } : {}),
      ...(input.toolContext === undefined ? {} : { toolContext: input.toolContext }),
    });
    return { ok: true };
  } catch (error) {
    const status409 = isApiError(error) && error.status === 409;
    const conflict = status409
      ? ResumeConflictDetails.safeParse((error as { details?: unknown }).details)
      : null;
    if (conflict?.success)
      return { ok: false, message: getConflictMessage(conflict.data), conflict: conflict.data };
    return { ok: false, message: getErrorMessage(error), status409 };
  }
}
