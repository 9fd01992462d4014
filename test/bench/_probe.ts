import { measureInterleaved, collectGarbage } from "./measure-interleaved.js";
import { createTrajectory } from "./overhead/overhead-tools.js";
import { createWaddleRunner } from "./overhead/waddle-runner.js";
import { getSummary } from "./stats.js";
for (const gc of [false, true, false, true]) {
  for (const steps of [10, 50, 200]) {
    const w = createWaddleRunner(createTrajectory(steps));
    const m = await measureInterleaved({
      contenders: [{ name: "w", units: steps, run: w }],
      rounds: 20,
      warmupMs: 1000,
      sampleMs: 25,
      beforeSample: gc ? collectGarbage : undefined,
    });
    console.log("gc", gc, steps, getSummary(m[0]!.perUnitUs).median.toFixed(2), m[0]!.runsPerSample);
  }
}
