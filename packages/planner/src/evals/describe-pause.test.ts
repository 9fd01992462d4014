import { TestExpect, type RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { checkExpectations } from "./check-expectations.js";
import { describePause, getPauseFact } from "./describe-pause.js";
import { getRunFacts, type RunFacts } from "./run-facts.js";

const paused: RunFacts = {
  status: "paused",
  answer: undefined,
  toolCalls: ["lookup"],
  llmCalls: 2,
  tokens: 10,
  costUsd: 0,
  durationMs: 5,
  unexpectedCalls: [],
  pause: { reason: "approval_required", tool: "send_email", detail: "it requires approval" },
};

const event = (seq: number, type: string, data: Record<string, unknown>) =>
  ({ runId: "run_1", seq, ts: seq, step: 0, type, data }) as unknown as RunEvent;

describe("a paused run in a test case", () => {
  it("fails a case that does not expect the pause, saying what the run waits on", () => {
    const [failure, ...others] = checkExpectations(TestExpect.parse({ status: "finished" }), paused);
    expect(others).toEqual([]);
    expect(failure).toMatchObject({ check: "status", expected: "finished", actual: "paused" });
    expect(failure?.message).toBe(
      'The run paused for approval before calling send_email (it requires approval), expected "finished". A test cannot answer a pause: expect status "paused" if the agent should stop there.',
    );
    // Without any expected status, a pause is still a failure: nobody will ever answer it.
    expect(checkExpectations(TestExpect.parse({}), paused)).toEqual([
      expect.objectContaining({ check: "status", expected: "no pause", actual: "paused" }),
    ]);
  });

  it("passes a case that expects the pause", () => {
    expect(checkExpectations(TestExpect.parse({ status: "paused" }), paused)).toEqual([]);
  });

  it("reads the pause from the events; an answered pause is no longer one", () => {
    const pause = event(2, "pause", {
      reason: "await_input",
      payload: { tool: "ask_user", message: "Which account?" },
      resumeToken: "t",
    });
    expect(getRunFacts([pause]).pause).toEqual({
      reason: "await_input",
      tool: "ask_user",
      detail: "Which account?",
    });
    const resumed = event(3, "resumed", { decision: "approve" });
    expect(getRunFacts([pause, resumed]).pause).toBeUndefined();
  });

  it("says each kind of pause in words", () => {
    const conflict = getPauseFact({
      reason: "constraints_conflict",
      payload: {
        conflicts: [
          {
            kind: "ordering_disallowed",
            message: "ordering_hints requires b, which disallow_nodes forbids.",
          },
        ],
        message: "The planning hints make progress impossible.",
      },
    });
    expect(describePause(conflict)).toBe(
      "paused on conflicting planning hints: ordering_hints requires b, which disallow_nodes forbids.",
    );
    const sideEffects = getPauseFact({
      reason: "approval_required",
      payload: { tool: "charge", why: "side_effects", sideEffects: "write" },
    });
    expect(describePause(sideEffects)).toBe(
      "paused for approval before calling charge (it has write side effects)",
    );
    expect(describePause({ reason: "external_event", tool: "wait_webhook" })).toBe(
      "paused at wait_webhook waiting for an outside event",
    );
  });
});
