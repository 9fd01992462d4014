// Child process of run.ts: runs one benchmark in a fresh Node process (its own heap and JIT state) and
// sends the report back over IPC. Usage: run-benchmark.ts <name> [--quick]
import type { BenchReport } from "./bench-report.js";
import { BENCHMARKS } from "./bench-registry.js";
import { getMachineInfo } from "./machine-info.js";

const [name, ...rest] = process.argv.slice(2);
const entry = BENCHMARKS.find((candidate) => candidate.name === name);
if (entry === undefined || process.send === undefined) {
  process.stderr.write(`run-benchmark.ts is started by run.ts with a benchmark name, not "${name}".\n`);
  process.exit(2);
}
const machine = getMachineInfo();
const run = await entry.load();
const result = await run({
  quick: rest.includes("--quick"),
  log: (message) => process.stderr.write(`  [${entry.name}] ${message}\n`),
});
const report: BenchReport = { name: entry.name, title: entry.title, machine, ...result };
process.send(report, () => process.exit(0));
