import { describe, expect, it } from "vitest";
import type { ParallelView, TransitionView } from "../../runs/fold/run-view.js";
import { getGroupProgress, getRunArcs } from "./get-run-overlay.js";

const move = (seq: number, step: number, from: string | null, to: string, edgeId: string | null = null) =>
  ({ seq, step, from, to, provenance: "llm", edgeId }) satisfies TransitionView;

const tools = new Set(["a", "b", "c", "d"]);

describe("getRunArcs", () => {
  it("draws one arc per undrawn pair, newest last, the latest step bright", () => {
    const arcs = getRunArcs({
      transitions: [
        move(1, 0, null, "a"),
        move(5, 1, "a", "c"),
        move(9, 2, "c", "b", "e1"),
        move(12, 3, "b", "d"),
        move(20, 4, "a", "c"),
      ],
      tools,
    });
    expect(arcs.map((arc) => [arc.id, arc.count, arc.latest])).toEqual([
      ["run-arc:b->d", 1, false],
      ["run-arc:a->c", 2, true],
    ]);
  });

  it("skips tools the spec does not have and keeps the newest pairs only", () => {
    const transitions = [
      move(1, 0, "a", "zz"),
      move(2, 1, "a", "b"),
      move(3, 2, "b", "c"),
      move(4, 3, "c", "d"),
    ];
    expect(getRunArcs({ transitions, tools, limit: 2 }).map((arc) => arc.id)).toEqual([
      "run-arc:b->c",
      "run-arc:c->d",
    ]);
  });
});

describe("getGroupProgress", () => {
  const parallel = (parallelId: string, step: number, patch: Partial<ParallelView> = {}): ParallelView => ({
    parallelId,
    groupId: "g1",
    step,
    nodes: ["a", "b"],
    total: 2,
    done: 0,
    failed: 0,
    joinNode: null,
    joinStatus: "none",
    finished: false,
    ...patch,
  });

  it("reports the group's latest fan-out", () => {
    const parallels = {
      p1: parallel("p1", 1, { done: 2, finished: true }),
      p2: parallel("p2", 4, { done: 1, failed: 1 }),
    };
    expect(getGroupProgress({ parallels, groupId: "g1", members: ["a", "b"] })).toMatchObject({
      done: 1,
      failed: 1,
      total: 2,
      runs: 2,
    });
    expect(getGroupProgress({ parallels, groupId: "g2", members: ["c"] })).toBeNull();
  });

  it("matches a fan-out without a group id by its members", () => {
    const parallels = { p1: parallel("p1", 1, { groupId: null }) };
    expect(getGroupProgress({ parallels, groupId: "g9", members: ["a", "b", "c"] })?.total).toBe(2);
  });
});
