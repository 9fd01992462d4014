import { GuardSampleResult, type GuardSampleRequest } from "@waddle/protocol";
import type { ApiRequester } from "./api-requester.js";

/** `POST /api/guards/check` (issue 35): one guard check run on a sample text, for Settings → Guards. */
export function createGuardsApi(http: ApiRequester) {
  return {
    /**
     * Runs `check` on `text` (an `llm` or `module` check uses `agentId`'s model and modules). Answers the
     * verdict, the findings by kind and, for a scanning check, the text as `redact` would leave it; a check
     * the server refuses throws ApiError `validation_failed` naming the field.
     */
    async checkGuardSample(body: GuardSampleRequest): Promise<GuardSampleResult> {
      return http.json("POST", "/api/guards/check", GuardSampleResult, body);
    },
  };
}

export type GuardsApi = ReturnType<typeof createGuardsApi>;
