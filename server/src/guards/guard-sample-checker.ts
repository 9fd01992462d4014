import type { GuardSampleRequest, GuardSampleResult } from "@waddle/protocol";
import { checkGuardSample, OfflineModel, type LlmClient } from "@waddle/planner";
import { createLlmFor, type DefaultPlannerFactoryOptions } from "../runs/default-planner-factory.js";
import { notFound } from "../shared/api-error.js";

/** Runs one guard check on a sample text (`POST /api/guards/check`, the designer's live sample box). */
export type GuardSampleChecker = (
  request: GuardSampleRequest,
  signal: AbortSignal,
) => Promise<GuardSampleResult>;

export type GuardSampleCheckerOptions = Pick<
  DefaultPlannerFactoryOptions,
  "store" | "registry" | "env" | "llmPolicy" | "redactor" | "logger" | "priceTable" | "getRunSettings"
>;

/**
 * The sample checker over the server's run setup. An `llm` check asks its own model, else the agent's
 * (`agentId`), else the offline model, each built as a run builds it (the endpoint policy, stored keys, the
 * offline model without a key), so that a sample never sends a key where a run could not. A `module` check
 * runs the registered function of that name.
 */
export function createGuardSampleChecker(options: GuardSampleCheckerOptions): GuardSampleChecker {
  return async (request, signal) => {
    const agent = request.agentId === undefined ? undefined : await options.store.getAgent(request.agentId);
    if (request.agentId !== undefined && agent === undefined) throw notFound("Agent", request.agentId);
    const { check } = request;
    let llm: LlmClient | undefined;
    if (check.kind === "llm") {
      const config = check.llm ?? agent?.spec.llm;
      // Read per call, as a run reads them when it starts: a credential added a moment ago counts.
      const live = options.getRunSettings ? await options.getRunSettings() : undefined;
      llm = config
        ? createLlmFor(options, live)(config, check.llm ? "check.llm" : "llm")
        : new OfflineModel();
    }
    return checkGuardSample(check, request.text, {
      ...(llm ? { llm } : {}),
      guardChecks: options.registry.getGuardChecks(),
      signal,
    });
  };
}
