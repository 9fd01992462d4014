import { describe, expect, it } from "vitest";
import { getConflictMessage } from "./get-conflict-message.js";

describe("getConflictMessage", () => {
  it("tells why a decision was refused and where the run is now", () => {
    expect(getConflictMessage({ reason: "already_answered", status: "running" })).toBe(
      "This pause was already answered by someone else. The run is now running.",
    );
    expect(getConflictMessage({ reason: "not_paused", status: "cancelled" })).toBe(
      "The run is no longer waiting for a decision. The run is now cancelled.",
    );
    expect(getConflictMessage({ reason: "stale_token", status: "paused" })).toMatch(
      /already answered.*now paused/,
    );
  });
});
