import { describe, expect, it } from "vitest";
import { toApiError } from "../http/error-handler.js";
import { LlmEndpointError } from "../llm/llm-endpoint-policy.js";
import { DataDirLockedError } from "../store/data-dir-lock.js";
import { StoreError } from "../store/waddle-store.js";
import { ToolExecutionError } from "../tools/tool-execution-error.js";
import { ApiError, isApiError, isWireError } from "./api-error.js";
import { ConfigError } from "./config-error.js";

describe("the ApiError family", () => {
  const internal = [
    new ConfigError("PORT is not valid."),
    new StoreError("seq_gap", "Event 3 after 1."),
    new ToolExecutionError("http_error", "GET failed.", true, { status: 502 }),
    new DataDirLockedError("/data", 42),
  ];

  it("has one base: a code, a message and details, whatever the part that threw", () => {
    for (const error of internal) expect(isApiError(error)).toBe(true);
    expect(isApiError(internal[1], "seq_gap", "closed")).toBe(true);
    expect(isApiError(internal[1], "conflict")).toBe(false);
    expect(isApiError(new Error("plain"))).toBe(false);
    expect(new DataDirLockedError("/data", 42).details).toEqual({ dataDir: "/data", pid: 42 });
  });

  it("answers with its own code only when the code is one of the API's, never with a stack", () => {
    const conflict = new StoreError("conflict", "Version 2 is stale.", { currentVersion: 3 });
    expect(isWireError(conflict)).toBe(true);
    expect(toApiError(conflict).status).toBe(409);
    expect(toApiError(conflict).toBody()).toEqual({
      code: "conflict",
      message: "Version 2 is stale.",
      details: { currentVersion: 3 },
    });
    for (const error of internal) {
      expect(isWireError(error)).toBe(false);
      expect(error.status).toBe(500);
      expect(toApiError(error).toBody()).toEqual({
        code: "internal",
        message: "Something went wrong on the server; the error is in its log.",
      });
    }
  });

  it("gives a refused LLM endpoint's details without the refusal messages", () => {
    const error = new LlmEndpointError([
      {
        path: "llm",
        field: "baseUrl",
        value: "https://x.example",
        setting: "WADDLE_LLM_ALLOW",
        message: "Not allowed.",
      },
    ]);
    expect(toApiError(error)).toBe(error);
    expect(error.status).toBe(422);
    expect(error.toBody()).toEqual({
      code: "llm_endpoint_not_allowed",
      message: "Not allowed.",
      details: {
        refusals: [
          { path: "llm", field: "baseUrl", value: "https://x.example", setting: "WADDLE_LLM_ALLOW" },
        ],
      },
    });
    expect(new ApiError("not_found", "No.").toBody()).toEqual({ code: "not_found", message: "No." });
  });
});
