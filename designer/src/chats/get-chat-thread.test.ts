import type { SessionTurn } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { applyRunEvents, createRunView } from "../runs/fold/apply-run-event.js";
import { getRunFixture } from "../testing/run-fixtures.js";
import { getChatThread } from "./get-chat-thread.js";

const turn = (n: number, status: SessionTurn["status"], answer: string | null = null): SessionTurn => ({
  runId: `run_${n}`,
  turn: n,
  query: `q${n}`,
  status,
  answer,
});

/** The recorded email-approval run up to (and with) its pause, as turn 2's run. */
function getPausedView() {
  const { events } = getRunFixture("email-approval");
  const until = events.findIndex((event) => event.type === "pause");
  return applyRunEvents(
    createRunView("run_2"),
    events.slice(0, until + 1).map((event) => ({ ...event, runId: "run_2" })),
  );
}

describe("getChatThread", () => {
  it("shows an ended turn with the session's answer and a turn going on with its run's state", () => {
    const paused = getPausedView();
    expect(paused.status).toBe("paused");
    const thread = getChatThread({
      record: { turns: [turn(1, "finished", "Answer one"), turn(2, "running")] },
      turnViews: { run_2: paused },
      pendingTurn: null,
    });
    expect(thread[0]).toMatchObject({
      turn: 1,
      status: "finished",
      answer: "Answer one",
      thinking: null,
      pause: null,
    });
    // the run paused before the session logged it: the run's word
    expect(thread[1]).toMatchObject({ turn: 2, status: "paused" });
    expect(thread[1]!.pause?.tool).toBe("send_email");
    expect(thread[1]!.thinking).toBe(paused.thinking);
  });

  it("keeps the session's status once it says the turn ended, and its answer over the streamed one", () => {
    const { events } = getRunFixture("email-approval");
    const ended = applyRunEvents(
      createRunView("run_1"),
      events.map((event) => ({ ...event, runId: "run_1" })),
    );
    const thread = getChatThread({
      record: { turns: [turn(1, "cancelled", "from the session")] },
      turnViews: { run_1: ended },
      pendingTurn: null,
    });
    expect(thread[0]).toMatchObject({ status: "cancelled", answer: "from the session", streaming: false });
  });

  it("adds a turn just sent until the session logs its start", () => {
    const pendingTurn = { runId: "run_2", query: "next" };
    const before = getChatThread({
      record: { turns: [turn(1, "finished", "a")] },
      turnViews: {},
      pendingTurn,
    });
    expect(before.map((item) => [item.turn, item.query, item.status])).toEqual([
      [1, "q1", "finished"],
      [2, "next", "queued"],
    ]);
    const after = getChatThread({
      record: { turns: [turn(1, "finished", "a"), { ...turn(2, "running"), query: "next" }] },
      turnViews: {},
      pendingTurn,
    });
    expect(after).toHaveLength(2);
  });
});

describe("getChatThread with a structured answer", () => {
  it("carries the answer object of a turn whose run finished with payload.data, and none otherwise", () => {
    const data = { city: "Paris", celsius: 19 };
    const answer = JSON.stringify(data);
    const finished = {
      ...createRunView("run_1"),
      status: "finished" as const,
      finish: { reason: "answer_complete", answer, payload: { answer, data }, failedJoins: [] },
    };
    const thread = getChatThread({
      record: { turns: [turn(1, "finished", answer), turn(2, "finished", "plain")] },
      turnViews: { run_1: finished },
      pendingTurn: null,
    });
    expect(thread[0]!.data).toEqual(data);
    expect(thread[1]!.data).toBeUndefined();
  });
});
