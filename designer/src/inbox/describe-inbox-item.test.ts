import { describe, expect, it } from "vitest";
import { ApiError } from "../api/api-error.js";
import {
  ALREADY_DECIDED,
  getInboxErrorMessage,
  getInboxItemTitle,
  getPreviewArgs,
  getRemovedLabel,
  getStartedByLabel,
  NO_LONGER_WAITING,
} from "./describe-inbox-item.js";

describe("inbox item words", () => {
  it("names who started the run", () => {
    expect(getStartedByLabel("alice")).toBe("alice");
    expect(getStartedByLabel("trigger:trg_1")).toBe("trigger trg_1");
    expect(getStartedByLabel("public:pub_9")).toBe("a public chat visitor");
    expect(getStartedByLabel("local")).toBe("the local user");
  });

  it("heads a pause with its tool and a merge with its name", () => {
    expect(getInboxItemTitle({ kind: "pause", tool: "send_email", reason: "approval_required" })).toBe(
      "send_email needs approval",
    );
    expect(getInboxItemTitle({ kind: "pause", reason: "stuck_on_it" })).toBe("The run stuck on it");
    expect(getInboxItemTitle({ kind: "pause", reason: "stuck" })).toBe("The run looks stuck");
    expect(getInboxItemTitle({ kind: "pause", reason: "guard", tool: "lookup" })).toBe(
      "A guard holds lookup's result for a decision",
    );
    expect(getInboxItemTitle({ kind: "pause", reason: "guard" })).toBe(
      "A guard holds the run for a decision",
    );
    expect(getInboxItemTitle({ kind: "merge", reason: "research" })).toBe(
      "Merge “research” waits for a decision",
    );
  });

  it("says a decision that came second plainly", () => {
    const conflict = new ApiError("conflict", "x", 409, { reason: "already_answered", status: "running" });
    expect(getInboxErrorMessage(conflict)).toBe(ALREADY_DECIDED);
    expect(getInboxErrorMessage(new ApiError("already_answered", "merge decided", 409))).toBe(
      ALREADY_DECIDED,
    );
    expect(
      getInboxErrorMessage(new ApiError("conflict", "x", 409, { reason: "not_paused", status: "finished" })),
    ).toBe(NO_LONGER_WAITING);
    expect(getInboxErrorMessage(new ApiError("not_found", "no item", 404))).toBe(NO_LONGER_WAITING);
    expect(getInboxErrorMessage(new ApiError("validation_failed", "until: must be in the future", 400))).toBe(
      "until: must be in the future",
    );
  });

  it("says how an item left", () => {
    expect(getRemovedLabel({ itemId: "x", decision: "approve", actor: "bob" })).toBe("approved by bob");
    expect(getRemovedLabel({ itemId: "x", decision: "timeout", actor: "timeout" })).toBe(
      "decided by its time limit",
    );
    expect(getRemovedLabel({ itemId: "x" })).toBeNull();
  });
});

describe("getPreviewArgs", () => {
  it("reads whole JSON, and keeps a preview cut short as text", () => {
    expect(getPreviewArgs('{"to":"dana@example.com"}')).toEqual({
      complete: true,
      args: { to: "dana@example.com" },
    });
    expect(getPreviewArgs('{"body":"A very long te…')).toEqual({
      complete: false,
      text: '{"body":"A very long te…',
    });
    expect(getPreviewArgs(undefined)).toEqual({ complete: false, text: null });
  });
});
