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
    expect(getTimelineEntry(resumed({ decision: "approve", actor: "alice" }), null)?.title).toBe(
      "Resumed: approved by alice",
    );
    expect(getTimelineEntry(resumed({ decision: "reject", actor: "ops-bot" }), null)?.title).toBe(
      "Resumed: rejected by ops-bot",
    );
    expect(getTimelineEntry(resumed({ decision: "edit", actor: "bob" }), null)?.title).toBe(
      "Resumed: edited by bob",
    );
  });

  it("keeps the old title for events recorded before decisions had an actor", () => {
    expect(getTimelineEntry(resumed({ decision: "approve" }), null)?.title).toBe("Resumed: approve");
  });
});
