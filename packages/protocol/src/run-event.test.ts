import { describe, expect, it } from "vitest";
import { RUN_EVENT_TYPES, RunEvent } from "./run-event.js";

const envelope = { runId: "run-1", seq: 1, ts: 1_700_000_000_000, step: 0 };

describe("RunEvent", () => {
  it("covers every event type that DESIGN.md and the seeds name", () => {
    for (const type of [
      "run_started",
      "step_start",
      "action",
      "tool_start",
      "tool_end",
      "tool_error",
      "tool_retry",
      "tool_progress",
      "parallel_start",
      "parallel_end",
      "reasoning",
      "todos_updated",
      "repair_attempt",
      "action_salvaged",
      "constraint_violation",
      "summary_compacted",
      "pause",
      "resumed",
      "task_spawned",
      "task_update",
      "task_group_report",
      "run_finished",
      "run_failed",
      "llm_stream_chunk",
      "auto_seq_detected_unique",
      "auto_seq_detected_ambiguous",
      "auto_seq_detected_none",
      "auto_seq_skipped",
      "auto_seq_executed",
      "run_recovered",
    ]) {
      expect(RUN_EVENT_TYPES).toContain(type);
    }
  });

  it("parses the seeds' payloads with their field names", () => {
    const chunk = RunEvent.parse({
      ...envelope,
      type: "llm_stream_chunk",
      data: { text: "Hel", done: false, phase: "args", channel: "answer", action_seq: 0 },
    });
    expect(chunk.type).toBe("llm_stream_chunk");
    const ambiguous = RunEvent.parse({
      ...envelope,
      type: "auto_seq_detected_ambiguous",
      data: {
        candidates: ["a", "b"],
        candidate_count: 2,
        payload_fingerprint: "f1",
        payload_type: "object",
        payload_keys_count: 3,
      },
    });
    expect(ambiguous.data).toMatchObject({ candidates: ["a", "b"] });
  });

  it("keeps extra payload fields and rejects unknown types and broken envelopes", () => {
    const event = RunEvent.parse({
      ...envelope,
      type: "auto_seq_executed",
      data: { tool_name: "x", extra: 1 },
    });
    expect(event.data).toMatchObject({ extra: 1 });
    expect(RunEvent.safeParse({ ...envelope, type: "made_up", data: {} }).success).toBe(false);
    expect(
      RunEvent.safeParse({ ...envelope, seq: 0, type: "auto_seq_executed", data: { tool_name: "x" } })
        .success,
    ).toBe(false);
  });
});
