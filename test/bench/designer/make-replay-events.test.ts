import { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { getBenchGroups, getToolName } from "./bench-agent-spec.js";
import { getFinishedResult, makeReplayEvents, type ReplayRunShape } from "./make-replay-events.js";

const SHAPE: ReplayRunShape = {
  runId: "run-replay",
  agentId: "designer-bench",
  agentVersion: 1,
  tools: Array.from({ length: 300 }, (_, index) => getToolName(index)),
  groups: getBenchGroups(300),
  events: 10_000,
  startTs: 1_700_000_000_000,
};

describe("makeReplayEvents", () => {
  it("yields exactly the events asked for, schema-valid, seq 1…n with no gap, ending with run_finished", () => {
    const events = makeReplayEvents(SHAPE);
    expect(events).toHaveLength(10_000);
    events.forEach((event, index) => {
      expect(event.seq).toBe(index + 1);
      expect(event.runId).toBe("run-replay");
      expect(RunEvent.safeParse(event).success).toBe(true);
    });
    expect(events[0]?.type).toBe("run_started");
    expect(events.at(-1)?.type).toBe("run_finished");
    expect(events.filter((event) => event.type === "run_finished")).toHaveLength(1);
  });

  it("walks the tools, fans out over groups, retries and fails some calls, and sums usage per call", () => {
    const events = makeReplayEvents(SHAPE);
    const types = new Set(events.map((event) => event.type));
    for (const type of [
      "tool_start",
      "tool_end",
      "tool_retry",
      "tool_error",
      "parallel_start",
      "parallel_end",
    ])
      expect(types).toContain(type);
    const started = new Set(
      events.flatMap((event) => (event.type === "tool_start" ? [event.data.tool] : [])),
    );
    expect(started.size).toBe(300);
    const calls = events.filter((event) => event.type === "llm_call").length;
    expect(getFinishedResult(events).metadata.llmCalls).toBe(calls);
  });

  it("fits any length down to one answer chunk", () => {
    for (const count of [10, 11, 37, 2_000]) {
      const events = makeReplayEvents({ ...SHAPE, events: count });
      expect(events).toHaveLength(count);
      expect(events.at(-1)?.seq).toBe(count);
    }
    expect(() => makeReplayEvents({ ...SHAPE, events: 9 })).toThrow(RangeError);
  });
});
