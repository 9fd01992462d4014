import { setTimeout as sleep } from "node:timers/promises";
import { buildCatalog, defineTool, ReactPlanner } from "@waddle/planner";
import { ScriptedClient } from "@waddle/planner/testing";
import type { RunEvent } from "@waddle/protocol";
import { z } from "zod";
import type { BenchContext, BenchResult, BenchTable, TargetCheck } from "../bench-report.js";
import { round } from "../format-report.js";
import { getSummary } from "../stats.js";

const BRANCHES = 8;
const BRANCH_MS = 100;
const SETTINGS = [1, 2, 4, 8] as const;

/** Milliseconds with sub-millisecond precision, on the same scale as Date.now(). */
const preciseNow = () => performance.timeOrigin + performance.now();

interface ParallelRun {
  /** parallel_start → parallel_end, from the planner's own events. */
  stepMs: number;
  /** The whole `planner.run`, model turns included (the model answers instantly). */
  runMs: number;
  /** The most branches seen running at once. */
  peakConcurrency: number;
}

/** A run whose model asks for eight 100 ms branches in one `parallel` action, under `max_parallel`. */
async function runParallel(maxParallel: number): Promise<ParallelRun> {
  let running = 0;
  let peakConcurrency = 0;
  const fetchShard = defineTool({
    name: "fetch_shard",
    desc: "Fetch one shard of the index (100 ms).",
    args: z.object({ shard: z.int().min(0) }),
    out: z.object({ shard: z.int(), rows: z.int() }),
    sideEffects: "read",
    run: async ({ shard }, context) => {
      running += 1;
      peakConcurrency = Math.max(peakConcurrency, running);
      try {
        await sleep(BRANCH_MS, undefined, { signal: context.signal });
      } finally {
        running -= 1;
      }
      return { shard, rows: 10 };
    },
  });
  const steps = Array.from({ length: BRANCHES }, (_, shard) => ({ node: "fetch_shard", args: { shard } }));
  const planner = new ReactPlanner({
    llm: new ScriptedClient([
      { next_node: "parallel", args: { steps } },
      { next_node: "final_response", args: { answer: "All shards fetched." } },
    ]),
    catalog: buildCatalog({ tools: [fetchShard] }),
    hints: { budget_hints: { max_parallel: maxParallel } },
    clock: preciseNow,
  });
  let started: number | undefined;
  let ended: number | undefined;
  const onEvent = (event: RunEvent) => {
    if (event.type === "parallel_start") started = event.ts;
    else if (event.type === "parallel_end") {
      ended = event.ts;
      if (event.data.successCount !== BRANCHES) {
        throw new Error(`${event.data.successCount}/${BRANCHES} branches succeeded.`);
      }
    }
  };
  const runStart = preciseNow();
  const outcome = await planner.run("Fetch every shard.", { onEvent });
  const runMs = preciseNow() - runStart;
  if (outcome.reason !== "answer_complete" || started === undefined || ended === undefined) {
    throw new Error(`The parallel run ended ${outcome.reason} without its parallel step.`);
  }
  return { stepMs: ended - started, runMs, peakConcurrency };
}

/**
 * The machine's floor for the same schedule: eight plain 100 ms timers, at most `limit` at once, with no
 * planner around them. Timers fire late on a loaded machine; this shows by how much.
 */
async function runBareTimers(limit: number): Promise<number> {
  const start = preciseNow();
  let next = 0;
  const worker = async () => {
    while (next < BRANCHES) {
      next += 1;
      await sleep(BRANCH_MS);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return preciseNow() - start;
}

/** The table row of one max_parallel setting, and whether it met the target. */
function judgeSetting(input: {
  setting: number;
  runs: readonly ParallelRun[];
  timers: readonly number[];
  table: BenchTable;
}): TargetCheck {
  const { setting, runs } = input;
  const wall = getSummary(runs.map((run) => run.stepMs));
  const ideal = Math.ceil(BRANCHES / setting) * BRANCH_MS;
  const allowed = 0.1 * ideal + 10;
  const peak = Math.max(...runs.map((run) => run.peakConcurrency));
  input.table.rows.push([
    setting,
    ideal,
    round(wall.median, 1),
    round(wall.p90, 1),
    round(wall.max, 1),
    `+${round(wall.median - ideal, 1)}`,
    `±${round(allowed, 0)}`,
    round(getSummary(input.timers).median, 1),
    round(getSummary(runs.map((run) => run.runMs)).median, 1),
    peak,
  ]);
  return {
    target: `max_parallel ${setting}: within 10 % + 10 ms of ${ideal} ms`,
    measured: `median ${round(wall.median, 1)} ms (worst ${round(wall.max, 1)})`,
    met: Math.abs(wall.median - ideal) <= allowed && peak <= setting,
  };
}

/** docs/benchmarks.md §3: wall time of eight 100 ms branches under max_parallel 1, 2, 4, 8 against the ideal. */
export async function runParallelBench(context: BenchContext): Promise<BenchResult> {
  const repeats = context.quick ? 2 : 10;
  const samples = new Map<number, ParallelRun[]>(SETTINGS.map((setting) => [setting, []]));
  const timers = new Map<number, number[]>(SETTINGS.map((setting) => [setting, []]));
  for (let repeat = 0; repeat < repeats; repeat += 1) {
    context.log(`round ${repeat + 1}/${repeats}`);
    for (const setting of SETTINGS) {
      samples.get(setting)!.push(await runParallel(setting));
      timers.get(setting)!.push(await runBareTimers(setting));
    }
  }
  const table: BenchTable = {
    title: `${BRANCHES} branches of ${BRANCH_MS} ms, parallel step wall time (parallel_start → parallel_end), ${repeats} runs each`,
    columns: [
      "max_parallel",
      "ideal ms",
      "median ms",
      "p90 ms",
      "max ms",
      "median − ideal",
      "allowed",
      "bare timers, median ms",
      "whole run, median ms",
      "peak concurrency",
    ],
    rows: [],
  };
  const targets = SETTINGS.map((setting) =>
    judgeSetting({ setting, runs: samples.get(setting)!, timers: timers.get(setting)!, table }),
  );
  return {
    tables: [table],
    lines: [],
    targets,
    notes: [
      "In-process ReactPlanner; the scripted model answers instantly with one `parallel` action of eight " +
        "`fetch_shard` calls, each a module tool that sleeps 100 ms on a real timer (honouring its signal); " +
        "`budget_hints.max_parallel` sets the limit. Times come from the planner's parallel_start and " +
        "parallel_end events on a sub-millisecond clock. The target is judged on the median of the runs, and " +
        "never met when more branches ran at once than allowed.",
      "`bare timers` runs the same schedule with plain timers and no planner, interleaved with the planner " +
        "runs: the gap between it and the ideal is the machine's (late timers under load), not Waddle's.",
    ],
  };
}
