import type { PublicStreamEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import {
  applyStreamEvent,
  createSendingTurn,
  getTurnFromTranscript,
  isTurnLive,
} from "./apply-stream-event.js";

const fold = (events: PublicStreamEvent[]) =>
  events.reduce(applyStreamEvent, createSendingTurn("Where is my order?"));

describe("applyStreamEvent", () => {
  it("streams the answer in pieces, then takes the final answer whole", () => {
    const turn = fold([
      { type: "turn_started", runId: "run_1", turn: 1 },
      { type: "delta", text: "Your order " },
      { type: "delta", text: "ships" },
    ]);
    expect(turn).toMatchObject({ runId: "run_1", status: "running", answer: "Your order ships" });
    expect(isTurnLive(turn)).toBe(true);
    const done = fold([
      { type: "turn_started", runId: "run_1", turn: 1 },
      { type: "delta", text: "Your order shi" },
      { type: "answer", runId: "run_1", answer: "Your order ships today." },
      { type: "done", status: "finished" },
    ]);
    expect(done).toMatchObject({ status: "finished", answer: "Your order ships today.", error: null });
    expect(isTurnLive(done)).toBe(false);
  });

  it("starts over at turn_started: a followed stream replays the turn from its first event", () => {
    const shown = {
      ...createSendingTurn("q"),
      runId: "run_1",
      status: "running" as const,
      answer: "Your ord",
    };
    const replayed = [
      { type: "turn_started", runId: "run_1", turn: 1 },
      { type: "step", step: { name: "lookup", status: "done" } },
      { type: "delta", text: "Your order" },
    ] satisfies PublicStreamEvent[];
    expect(replayed.reduce(applyStreamEvent, shown)).toMatchObject({
      answer: "Your order",
      steps: [{ name: "lookup", status: "done" }],
    });
  });

  it("updates a running step in place and adds the next ones", () => {
    const turn = fold([
      { type: "step", step: { name: "lookup", status: "running" } },
      { type: "step", step: { name: "lookup", status: "done" } },
      { type: "step", step: { name: "lookup", status: "running" } },
      { type: "step", step: { name: "notify", status: "failed" } },
    ]);
    expect(turn.steps).toEqual([
      { name: "lookup", status: "done" },
      { name: "lookup", status: "running" },
      { name: "notify", status: "failed" },
    ]);
  });

  it("waits for a person, then goes on when resumed", () => {
    const waiting = fold([
      { type: "turn_started", runId: "run_1", turn: 1 },
      { type: "waiting", message: "Waiting for a team member to approve refund" },
    ]);
    expect(waiting).toMatchObject({
      status: "waiting",
      waitingFor: "Waiting for a team member to approve refund",
    });
    expect(isTurnLive(waiting)).toBe(true);
    const resumed = applyStreamEvent(waiting, { type: "resumed" });
    expect(resumed).toMatchObject({ status: "running", waitingFor: null });
  });

  it("says why a turn failed", () => {
    expect(
      fold([
        { type: "error", code: "run_failed", message: "The model is unreachable." },
        { type: "done", status: "failed" },
      ]),
    ).toMatchObject({ status: "failed", error: "The model is unreachable." });
    expect(fold([{ type: "done", status: "failed" }]).error).toBe("The agent could not answer this message.");
  });
});

describe("getTurnFromTranscript", () => {
  it("shows a stored turn as it stands, a waiting one with its message", () => {
    expect(
      getTurnFromTranscript({
        runId: "run_2",
        turn: 2,
        query: "Refund it",
        status: "waiting",
        answer: null,
        waitingFor: "Waiting for a team member to approve refund",
        steps: [{ name: "refund", status: "running" }],
        rating: null,
      }),
    ).toEqual({
      runId: "run_2",
      query: "Refund it",
      status: "waiting",
      answer: "",
      waitingFor: "Waiting for a team member to approve refund",
      steps: [{ name: "refund", status: "running" }],
      rating: null,
      error: null,
    });
  });
});
