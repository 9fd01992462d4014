import { describe, expect, it } from "vitest";
import { getPauseExplanation } from "./get-pause-explanation.js";

describe("getPauseExplanation", () => {
  it("says what a guard held and what it found, by kind and count", () => {
    expect(
      getPauseExplanation("guard", {
        guard: "pii",
        on: "tool_result",
        tool: "lookup",
        findings: [
          { kind: "email", count: 1 },
          { kind: "card", count: 1 },
        ],
        message: "Personal data found. Approve to let lookup's result through as it is, reject to stop it.",
      }),
    ).toEqual({
      kind: "guard",
      guard: "pii",
      place: "lookup's result",
      findings: "1 email, 1 card",
      message: "Personal data found. Approve to let lookup's result through as it is, reject to stop it.",
    });
    expect(getPauseExplanation("guard", { guard: "tone", on: "output", findings: [] })).toMatchObject({
      place: "the answer",
      findings: "",
      message: null,
    });
    // the inbox list carries the sentence alone, until the pause's facts are read
    expect(getPauseExplanation("guard", { message: 'Guard "pii" stopped this tool result.' })).toEqual({
      kind: "note",
      message: 'Guard "pii" stopped this tool result.',
    });
  });

  it("carries the stuck-run breaker's message, and nothing for other pauses or bad payloads", () => {
    expect(
      getPauseExplanation("stuck", {
        pattern: "repeat",
        message: "The run looks stuck: search called 3 times.",
      }),
    ).toEqual({ kind: "note", message: "The run looks stuck: search called 3 times." });
    expect(getPauseExplanation("stuck", {})).toBeNull();
    expect(getPauseExplanation("approval_required", { tool: "send_email", message: "x" })).toBeNull();
    expect(getPauseExplanation("guard", { on: "somewhere" })).toBeNull();
  });
});
