import { describe, expect, it } from "vitest";
import { getConflictMessage } from "./get-conflict-message.js";

describe("getConflictMessage", () => {
  it("tells why a decision was refused, leaving the run's changing status to the live view", () => {
    expect(getConflictMessage({ reason: "already_answered" })).toBe(
      "This pause was already answered by someone else.",
    );
    expect(getConflictMessage({ reason: "not_paused" })).toBe("The run is no longer waiting for a decision.");
    expect(getConflictMessage({ reason: "stale_token" })).toMatch(/already answered.*moved on/);
  });
});
