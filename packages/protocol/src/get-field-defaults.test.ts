import { describe, expect, it } from "vitest";
import { HttpImpl, LlmConfig, PlannerOptions, RetryPolicy } from "./agent-spec.js";
import { getFieldDefaults } from "./get-field-defaults.js";

describe("getFieldDefaults", () => {
  it("gives what parsing fills in when every field has a default", () => {
    expect(getFieldDefaults(PlannerOptions)).toEqual(PlannerOptions.parse({}));
    expect(getFieldDefaults(RetryPolicy)).toEqual({ maxAttempts: 3, backoffMs: 200, maxBackoffMs: 5_000 });
    expect(getFieldDefaults(PlannerOptions).repairAttempts).toBe(2);
  });

  it("leaves out fields without a default", () => {
    expect(getFieldDefaults(LlmConfig)).toEqual({ temperature: 0 });
    expect(getFieldDefaults(HttpImpl)).toEqual({
      method: "GET",
      headers: {},
      query: {},
      body: "args",
      maxResponseBytes: 1_000_000,
    });
  });
});
