import { beforeEach, describe, expect, it, vi } from "vitest";
import { makeLongRun } from "../../testing/make-run-events.js";
import { getRunFixture } from "../../testing/run-fixtures.js";
import type * as ApplyRunEvent from "../fold/apply-run-event.js";
import { applyRunEvents, createRunView } from "../fold/apply-run-event.js";
import { createReplayIndex } from "./replay-index.js";

const folded = vi.hoisted(() => ({ events: 0 }));

vi.mock("../fold/apply-run-event.js", async (importOriginal) => {
  const original = await importOriginal<typeof ApplyRunEvent>();
  return {
    ...original,
    applyRunEvents: (...args: Parameters<typeof original.applyRunEvents>) => {
      folded.events += args[1].length;
      return original.applyRunEvents(...args);
    },
  };
});

beforeEach(() => {
  folded.events = 0;
});

describe("createReplayIndex", () => {
  it("gives the view after any number of events, forwards and backwards", () => {
    const { spec, events } = getRunFixture("email-approval");
    const replay = createReplayIndex(events, { every: 10, spec });
    expect(replay.length).toBe(events.length);
    expect(replay.getViewAt(0)).toEqual(createRunView(events[0]!.runId));
    for (const position of [events.length, 28, 3, 29, 10, 11, 0, 54, 20]) {
      const expected = applyRunEvents(createRunView(events[0]!.runId), events.slice(0, position), { spec });
      expect(replay.getViewAt(position)).toEqual(expected);
    }
    expect(replay.getViewAt(28).status).toBe("paused");
    expect(replay.getViewAt(events.length).status).toBe("finished");
  });

  it("clamps positions outside the run", () => {
    const { events } = getRunFixture("support-triage");
    const replay = createReplayIndex(events);
    expect(replay.getViewAt(-5).lastSeq).toBe(0);
    expect(replay.getViewAt(10_000).lastSeq).toBe(events.length);
    expect(replay.getViewAt(2.7).lastSeq).toBe(2);
  });

  it("folds at most `every` events for a jump anywhere in a 10,000-event run", () => {
    const events = makeLongRun({ steps: 1_200 });
    const replay = createReplayIndex(events, { every: 200 });
    expect(folded.events).toBeLessThanOrEqual(events.length);
    for (const position of [9_999, 17, 5_123, 5_124, 200, 10_500]) {
      folded.events = 0;
      const view = replay.getViewAt(position);
      expect(folded.events).toBeLessThan(200);
      expect(view.lastSeq).toBe(Math.min(position, events.length));
    }
  });

  it("steps forward from the last view it gave, one event at a time", () => {
    const events = makeLongRun({ steps: 100 });
    const replay = createReplayIndex(events, { every: 200 });
    replay.getViewAt(150);
    folded.events = 0;
    replay.getViewAt(151);
    replay.getViewAt(152);
    expect(folded.events).toBe(2);
    // stepping back re-folds from the checkpoint, never from the start of the run
    folded.events = 0;
    replay.getViewAt(600);
    folded.events = 0;
    replay.getViewAt(599);
    expect(folded.events).toBe(199);
  });

  it("finds the position just after an event's seq", () => {
    const { events } = getRunFixture("support-triage");
    const replay = createReplayIndex(events);
    expect(replay.getPositionOfSeq(1)).toBe(1);
    expect(replay.getPositionOfSeq(20)).toBe(20);
    expect(replay.getPositionOfSeq(0)).toBe(0);
    expect(replay.getPositionOfSeq(999)).toBe(events.length);
  });

  it("orders events by seq and drops duplicates", () => {
    const { spec, events } = getRunFixture("sharded-research");
    const shuffled = [...events.slice(20), ...events.slice(0, 25)];
    const replay = createReplayIndex(shuffled, { every: 7, spec });
    expect(replay.length).toBe(events.length);
    expect(replay.getViewAt(replay.length)).toEqual(
      applyRunEvents(createRunView(events[0]!.runId), events, { spec }),
    );
  });

  it("replays an empty run", () => {
    const replay = createReplayIndex([], { runId: "run-0" });
    expect(replay.length).toBe(0);
    expect(replay.getViewAt(3)).toMatchObject({ runId: "run-0", status: "queued" });
  });
});
