// Runs one contender of the overhead benchmark in a loop, for `node --cpu-prof`, on the built planner
// (`tsc -b tsconfig.build.json` first; add --conditions=source to profile the tsx-transformed sources):
//   node --cpu-prof --cpu-prof-dir=/tmp/waddle-prof --import tsx \
//     test/bench/overhead/profile-overhead.ts [waddle|waddle-quiet|langgraph|bare] [steps=50] [seconds=8]
//   node_modules/.bin/tsx test/bench/cpu-profile-summary.ts /tmp/waddle-prof/CPU.*.0.001.cpuprofile
import { createJsonReplies, InstantReplies, runBareLoop } from "./bare-loop.js";
import { createLangGraphRunner } from "./langgraph-runner.js";
import { createTrajectory } from "./overhead-tools.js";
import { createWaddleRunner } from "./waddle-runner.js";

const [contender = "waddle", stepsArg = "50", secondsArg = "8"] = process.argv.slice(2);
const steps = Number(stepsArg);
const trajectory = createTrajectory(steps);
const replies = new InstantReplies(createJsonReplies(trajectory));
const runners: Record<string, () => Promise<unknown>> = {
  waddle: createWaddleRunner(trajectory),
  "waddle-quiet": createWaddleRunner(trajectory, { events: false }),
  langgraph: createLangGraphRunner(trajectory),
  bare: () => {
    replies.reset();
    return runBareLoop({
      query: "Run the scripted trajectory.",
      complete: () => Promise.resolve(replies.next()),
    });
  },
};
const run = runners[contender];
if (run === undefined)
  throw new Error(`Profile one of ${Object.keys(runners).join(", ")}, not "${contender}".`);
const until = performance.now() + Number(secondsArg) * 1000;
let runs = 0;
while (performance.now() < until) {
  await run();
  runs += 1;
}
const us = (Number(secondsArg) * 1e6) / (runs * steps);
console.log(`${contender}: ${runs} runs of ${steps} steps, ${us.toFixed(2)} µs per step`);
