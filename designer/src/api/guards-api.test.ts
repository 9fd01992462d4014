import { describe, expect, it } from "vitest";
import { createRecordingFetch } from "../testing/create-recording-fetch.js";
import { ApiError } from "./api-error.js";
import { createApiRequester } from "./api-requester.js";
import { createGuardsApi } from "./guards-api.js";

describe("createGuardsApi", () => {
  it("posts the check and the sample to /api/guards/check and reads the verdict", async () => {
    const answer = {
      verdict: "fail",
      findings: [{ kind: "email", count: 1 }],
      redacted: "Reach Ana at [email]",
      durationMs: 0.4,
    };
    const { fetcher, calls } = createRecordingFetch(() => ({ status: 200, body: answer }));
    const api = createGuardsApi(createApiRequester({ getToken: () => null, fetch: fetcher }));
    await expect(
      api.checkGuardSample({ check: { kind: "pii" }, text: "Reach Ana at ana@example.com", agentId: "desk" }),
    ).resolves.toEqual(answer);
    expect(calls).toMatchObject([
      {
        method: "POST",
        url: "/api/guards/check",
        body: { check: { kind: "pii" }, text: "Reach Ana at ana@example.com", agentId: "desk" },
      },
    ]);
  });

  it("turns a refusal into ApiError with the server's code, and an answer of the wrong shape into invalid_response", async () => {
    const refusing = createRecordingFetch(() => ({
      status: 400,
      body: { code: "validation_failed", message: "check.words[0]: not a valid regular expression" },
    }));
    const api = createGuardsApi(createApiRequester({ getToken: () => null, fetch: refusing.fetcher }));
    const check = { kind: "deny_words" as const, words: ["("], regex: true };
    await expect(api.checkGuardSample({ check, text: "x" })).rejects.toMatchObject({
      code: "validation_failed",
      status: 400,
    });
    const odd = createRecordingFetch(() => ({ status: 200, body: { verdict: "maybe" } }));
    const oddApi = createGuardsApi(createApiRequester({ getToken: () => null, fetch: odd.fetcher }));
    const error = await oddApi
      .checkGuardSample({ check: { kind: "secrets" }, text: "x" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("invalid_response");
  });
});
