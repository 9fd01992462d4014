import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { getTimelineEntry } from "./get-timeline-entry.js";

describe("who decided a pause, in the run timeline", () => {
  const resumed = (data: Extract<RunEvent, { type: "resumed" }>["data"]): RunEvent => ({
    runId: "run-1",
    seq: 5,
    ts: 1_000,
    step: 2,
    type: "resumed",
    data,
  });

  it("names the decider when the event carries one", () => {
    expect(getTimelineEntry(resumed({ decision: "approve", actor: "alice" }), null, "pay")?.title).toBe(
      "Approved by alice: pay",
    );
    expect(getTimelineEntry(resumed({ decision: "reject", actor: "ops-bot" }), null)?.title).toBe(
      "Rejected by ops-bot",
    );
    expect(getTimelineEntry(resumed({ decision: "edit", actor: "bob" }), null)?.title).toBe(
      "Edited and approved by bob",
    );
  });

  it("names nobody when the event names nobody (a server without keys, or an older event)", () => {
    expect(getTimelineEntry(resumed({ decision: "approve" }), null)?.title).toBe("Approved");
    expect(getTimelineEntry(resumed({ decision: "approve" }), null, "pay")?.title).toBe("Approved: pay");
  });
});
