import { describe, expect, it } from "vitest";
import { ApiError } from "../api/api-error.js";
import { getReleaseRefusal } from "./release-errors.js";

describe("getReleaseRefusal", () => {
  it("reads tests_failed with its test run and cases, channel_moved with where it points now", () => {
    const failures = [{ caseId: "c1", name: "n", runId: "r", status: "failed", failures: [] }];
    expect(
      getReleaseRefusal(
        new ApiError("tests_failed", "Failed", 409, { testRunId: "tr_1", status: "failed", failures }),
      ),
    ).toEqual({
      kind: "tests_failed",
      message: "Failed",
      details: { testRunId: "tr_1", status: "failed", failures },
    });
    const channel = {
      name: "production",
      version: 4,
      releasedAt: "2026-01-01T00:00:00Z",
      releasedBy: "ann",
      notes: null,
      testRunId: null,
    };
    expect(getReleaseRefusal(new ApiError("channel_moved", "Moved", 409, { channel }))).toEqual({
      kind: "channel_moved",
      message: "Moved",
      version: 4,
    });
  });

  it("keeps the message of anything else, a tests_failed without readable details among them", () => {
    expect(getReleaseRefusal(new ApiError("no_previous_release", "None before", 409))).toEqual({
      kind: "no_previous_release",
      message: "None before",
    });
    expect(getReleaseRefusal(new ApiError("tests_failed", "Odd", 409, { nope: 1 }))).toEqual({
      kind: "other",
      message: "Odd",
    });
    expect(getReleaseRefusal(new Error("boom"))).toEqual({ kind: "other", message: "boom" });
  });
});
