import type { RunRecord } from "@waddle/protocol";
import { ApiError } from "../../shared/api-error.js";
import type { McpSideEffectsSource } from "../../mcp-client/mcp-client-manager.js";
import type { WaddleStore } from "../../store/waddle-store.js";
import { getFailureText, type AgentRunOutcome } from "../run-outcome.js";
import { getSideEffectCalls, type SideEffectCall } from "../side-effect-calls.js";

/**
 * The error a failed run answers with: 500 (`x-should-retry: false`), or 400
 * `run_failed_after_side_effects` naming the tools once one with side effects ran, since some clients retry
 * any 5xx and a retry would run them again (docs/guides/openai-endpoints.md, "Retries").
 */
export async function getRunFailure(
  store: WaddleStore,
  run: RunRecord,
  outcome: Extract<AgentRunOutcome, { kind: "failure" }>,
  mcp?: McpSideEffectsSource,
): Promise<{ error: ApiError; sideEffects: SideEffectCall[] }> {
  const calls = await getSideEffectCalls(store, run, mcp);
  const error =
    calls.length === 0
      ? new ApiError("internal", getFailureText(outcome), { openAiCode: outcome.error.code })
      : new ApiError(
          "run_failed_after_side_effects",
          `${getFailureText(outcome)} It had already run ${calls
            .map((call) => `${call.tool} (${call.sideEffects})`)
            .join(", ")}: sending the request again would run ${calls.length === 1 ? "it" : "them"} ` +
            "again, so this error is not one to retry.",
          { openAiCode: "run_failed_after_side_effects" },
        );
  return { error, sideEffects: calls };
}
