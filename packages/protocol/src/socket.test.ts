import { describe, expect, it } from "vitest";
import {
  RunEventsMessage,
  SubscribeMessage,
  UnwatchAgentMessage,
  WatchAgentAck,
  WatchAgentMessage,
} from "./socket.js";

const step = (seq: number, runId = "run-1") => ({
  runId,
  seq,
  ts: 1_700_000_000_000 + seq,
  step: seq,
  type: "step_start",
  data: { source: "llm" },
});

describe("subscribe and run_events", () => {
  it("subscribe opts in to batches with batch: true; without it, one event message each as before", () => {
    expect(SubscribeMessage.parse({ runId: "r" })).toEqual({ runId: "r", afterSeq: 0 });
    expect(SubscribeMessage.parse({ runId: "r", afterSeq: 3, batch: true })).toEqual({
      runId: "r",
      afterSeq: 3,
      batch: true,
    });
    expect(SubscribeMessage.safeParse({ runId: "r", batch: "yes" }).success).toBe(false);
  });

  it("a batch is a non-empty array of one run's events in increasing seq", () => {
    expect(RunEventsMessage.parse([step(1), step(2), step(5)]).map((event) => event.seq)).toEqual([1, 2, 5]);
    expect(RunEventsMessage.safeParse([]).success).toBe(false);
    expect(RunEventsMessage.safeParse([step(2), step(1)]).success).toBe(false);
    expect(RunEventsMessage.safeParse([step(1), step(1)]).success).toBe(false);
    expect(RunEventsMessage.safeParse([step(1), step(2, "run-2")]).success).toBe(false);
    expect(RunEventsMessage.safeParse([{ ...step(1), type: "nope" }]).success).toBe(false);
  });
});

describe("watch_agent messages", () => {
  it("takes an agent id and nothing else", () => {
    expect(WatchAgentMessage.parse({ agentId: "email-approval" })).toEqual({ agentId: "email-approval" });
    expect(WatchAgentMessage.safeParse({ agentId: "Not A Slug" }).success).toBe(false);
    expect(WatchAgentMessage.safeParse({ agentId: "a", extra: 1 }).success).toBe(false);
    expect(WatchAgentMessage.safeParse("a").success).toBe(false);
    expect(UnwatchAgentMessage.safeParse({}).success).toBe(false);
  });

  it("acks ok or an error body", () => {
    expect(WatchAgentAck.safeParse({ ok: true }).success).toBe(true);
    expect(WatchAgentAck.safeParse({ ok: false, error: { code: "x", message: "y" } }).success).toBe(true);
    expect(WatchAgentAck.safeParse({ ok: false }).success).toBe(false);
  });
});
