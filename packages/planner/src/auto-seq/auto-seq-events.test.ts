import { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { detectTransition } from "./auto-seq.js";
import { getAutoSeqEventData } from "./auto-seq-events.js";
import { canAutoExecute } from "./auto-seq-gate.js";

const tools = [
  { name: "a", sideEffects: "read" as const, autoSeq: true, args: z.object({ x: z.number() }) },
  { name: "b", sideEffects: "read" as const, autoSeq: true, args: z.object({ x: z.number() }) },
  { name: "c", sideEffects: "read" as const, autoSeq: true, args: z.object({ y: z.number() }) },
];

function asRunEvent(event: ReturnType<typeof getAutoSeqEventData>): RunEvent {
  return RunEvent.parse({ runId: "r1", seq: 1, ts: 0, step: 1, ...event });
}

describe("getAutoSeqEventData", () => {
  const detect = (observation: unknown, next_node = "prev") =>
    detectTransition({ steps: [{ next_node, observation }], tools, readOnlyOnly: true });

  it("unique", () => {
    const event = getAutoSeqEventData(detect({ y: 1 }), "prev");
    expect(event.type).toBe("auto_seq_detected_unique");
    expect(event.data).toEqual({
      tool_name: "c",
      candidate_count: 1,
      prev_step_next_node: "prev",
      payload_fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown,
      payload_type: "object",
      payload_keys_count: 1,
    });
    asRunEvent(event);
  });

  it("ambiguous, with the shipped `candidates` key", () => {
    const event = getAutoSeqEventData(detect({ x: 1 }), "prev");
    expect(event).toMatchObject({
      type: "auto_seq_detected_ambiguous",
      data: { candidates: ["a", "b"], candidate_count: 2, payload_keys_count: 1 },
    });
    expect(event.data).not.toHaveProperty("tool_names");
    asRunEvent(event);
  });

  it("none", () => {
    const event = getAutoSeqEventData(detect({ z: 1 }), "prev");
    expect(event).toMatchObject({ type: "auto_seq_detected_none", data: { prev_step_next_node: "prev" } });
    asRunEvent(event);
  });

  it("skipped, with its reason; no fingerprint fields before the first step", () => {
    const skipped = getAutoSeqEventData(detect("text"), "prev");
    expect(skipped).toMatchObject({
      type: "auto_seq_skipped",
      data: { reason: "non_structured_observation", payload_type: "string" },
    });
    asRunEvent(skipped);
    const first = getAutoSeqEventData(detectTransition({ steps: [], tools, readOnlyOnly: true }), null);
    expect(first).toEqual({
      type: "auto_seq_skipped",
      data: { reason: "no_steps", prev_step_next_node: null },
    });
    asRunEvent(first);
  });
});

describe("canAutoExecute", () => {
  const open = {
    plannerExecute: true,
    tool: { autoSeqExecute: true, requiresApproval: false },
    disallowed: false,
    approvalRequired: false,
  };

  it("runs only when planner and tool both allow it", () => {
    expect(canAutoExecute(open)).toBe(true);
    expect(canAutoExecute({ ...open, plannerExecute: false })).toBe(false);
    expect(canAutoExecute({ ...open, tool: { ...open.tool, autoSeqExecute: false } })).toBe(false);
  });

  it("never auto-executes a disallowed or approval-gated tool", () => {
    expect(canAutoExecute({ ...open, disallowed: true })).toBe(false);
    expect(canAutoExecute({ ...open, approvalRequired: true })).toBe(false);
    expect(canAutoExecute({ ...open, tool: { ...open.tool, requiresApproval: true } })).toBe(false);
  });
});
