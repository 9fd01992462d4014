import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { getTimelineEntry } from "./get-timeline-entry.js";

describe("a tool's progress in the run timeline", () => {
  it("shows progress with its total and message, on the call it belongs to", () => {
    const event = {
      runId: "run-1",
      seq: 4,
      ts: 1_000,
      step: 1,
      type: "tool_progress",
      data: { tool: "count", callId: "call-1", progress: 2, total: 3, message: "counted 2" },
    } satisfies RunEvent;
    expect(getTimelineEntry(event, "count")).toMatchObject({
      kind: "tool",
      title: "Progress count",
      detail: "2/3 · counted 2",
      tool: "count",
      callId: "call-1",
    });
    const bare = { ...event, data: { tool: "count", callId: "call-1", progress: 0.5 } } satisfies RunEvent;
    expect(getTimelineEntry(bare, null)?.detail).toBe("0.5");
  });
});
