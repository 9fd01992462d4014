import { describe, expect, it } from "vitest";
import { getProfileTimes } from "./cpu-profile-summary.js";

describe("getProfileTimes", () => {
  it("adds sample time to a frame's self time and to every caller's total time once", () => {
    const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
      id,
      callFrame: { functionName, url },
      children,
    });
    const times = getProfileTimes({
      nodes: [
        frame(1, "(root)", "", [2]),
        frame(2, "run", "file:///work/main/packages/planner/src/planner-run.ts", [3, 4]),
        frame(3, "emit", "file:///work/main/packages/planner/src/run-event-emitter.ts"),
        frame(4, "run", "file:///work/main/packages/planner/src/planner-run.ts"),
      ],
      samples: [3, 3, 4, 2],
      timeDeltas: [1000, 1000, 2000, 4000],
    });
    expect(times.totalMs).toBe(8);
    expect(times.self).toEqual([
      ["run packages/planner/src/planner-run.ts", 6],
      ["emit packages/planner/src/run-event-emitter.ts", 2],
    ]);
    // The recursive `run` frame counts once per sample.
    expect(times.total).toContainEqual(["run packages/planner/src/planner-run.ts", 8]);
    expect(times.files[0]).toEqual(["packages/planner/src/planner-run.ts", 6]);
  });
});
