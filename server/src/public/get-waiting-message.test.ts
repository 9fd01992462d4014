import { describe, expect, it } from "vitest";
import { getWaitingMessage } from "./get-waiting-message.js";

describe("what a visitor reads while a guard holds their turn", () => {
  it("says what is reviewed, never the guard's message or what it found", () => {
    const payload = {
      kind: "guard",
      guard: "no-pii",
      findings: [{ kind: "email", count: 1 }],
      message:
        "Guard no-pii found email (1) in lookup's result. Approve to let it through, reject to stop it.",
    };
    const said = (on: string) => getWaitingMessage({ reason: "guard", payload: { ...payload, on } });
    expect(said("output")).toBe("Waiting for a team member to review the answer");
    expect(said("input")).toBe("Waiting for a team member to review your message");
    expect(said("tool_result")).toBe("Waiting for a team member to review a step");
    for (const on of ["output", "input", "tool_result"]) expect(said(on)).not.toMatch(/no-pii|email/);
  });
});
