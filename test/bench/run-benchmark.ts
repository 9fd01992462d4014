// Child process of run.ts: runs one benchmark in a fresh Node process (its own heap and JIT state) and
// sends the report back over IPC. Started by hand (no IPC), it prints the report instead, e.g. to profile
// the built packages (run `tsc -b tsconfig.build.json` first; --conditions=source runs the sources):
//   node --cpu-prof --cpu-prof-dir=/tmp/waddle-prof --expose-gc --import tsx \
//     test/bench/run-benchmark.ts live-events
import type { BenchReport } from "./bench-report.js";
import { BENCHMARK_NAMES, BENCHMARKS } from "./bench-registry.js";
import { formatReport } from "./format-report.js";
import { getMachineInfo } from "./machine-info.js";

const [name, ...rest] = process.argv.slice(2);
const entry = BENCHMARKS.find((candidate) => candidate.name === name);
if (entry === undefined) {
  process.stderr.write(
    `run-benchmark.ts needs a benchmark name (${BENCHMARK_NAMES.join(", ")}), not "${name}".\n`,
  );
  process.exit(2);
}
const machine = getMachineInfo();
const run = await entry.load();
const result = await run({
  quick: rest.includes("--quick"),
  log: (message) => process.stderr.write(`  [${entry.name}] ${message}\n`),
});
machine.loadAverageEnd = getMachineInfo().loadAverage;
const report: BenchReport = { name: entry.name, title: entry.title, machine, ...result };
if (process.send === undefined) process.stdout.write(`${formatReport(report)}\n`);
else process.send(report, () => process.exit(0));
