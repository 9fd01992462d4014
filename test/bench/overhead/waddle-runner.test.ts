import { describe, expect, it } from "vitest";
import { createTrajectory } from "./overhead-tools.js";
import { createWaddleRunner } from "./waddle-runner.js";

describe("createWaddleRunner", () => {
  it("runs every scripted step with events on, run after run", async () => {
    const run = createWaddleRunner(createTrajectory(5));
    for (let repeat = 0; repeat < 2; repeat += 1) {
      const stats = await run();
      expect(stats).toMatchObject({ toolEnds: 5, reason: "answer_complete" });
      expect(stats.events).toBeGreaterThan(5 * 3);
    }
  });

  it("runs the same steps with events off", async () => {
    const stats = await createWaddleRunner(createTrajectory(5), { events: false })();
    expect(stats).toEqual({ events: 0, toolEnds: 5, reason: "answer_complete" });
  });
});
