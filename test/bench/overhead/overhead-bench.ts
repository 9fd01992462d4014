import type { BenchContext, BenchResult, BenchTable } from "../bench-report.js";
import { round } from "../format-report.js";
import {
  collectGarbage,
  measureInterleaved,
  type Contender,
  type Measurement,
} from "../measure-interleaved.js";
import { getPercentile, getRelativeIqr, getSummary } from "../stats.js";
import { createJsonReplies, InstantReplies, runBareLoop } from "./bare-loop.js";
import { createLangGraphRunner } from "./langgraph-runner.js";
import { createTrajectory } from "./overhead-tools.js";
import { createWaddleRunner } from "./waddle-runner.js";

const SIZES = [10, 50, 200] as const;
const RATIO_SIZE = 50;

/** The three contenders for one trajectory length, each checking that its run did the whole script. */
function createContenders(steps: number): Contender[] {
  const trajectory = createTrajectory(steps);
  const waddle = createWaddleRunner(trajectory);
  const quietWaddle = createWaddleRunner(trajectory, { events: false });
  const langGraph = createLangGraphRunner(trajectory);
  const replies = new InstantReplies(createJsonReplies(trajectory));
  const complete = () => Promise.resolve(replies.next());
  return [
    {
      name: "Waddle ReactPlanner",
      units: steps,
      run: async () => {
        const stats = await waddle();
        if (stats.reason !== "answer_complete" || stats.toolEnds !== steps) {
          throw new Error(`Waddle ran ${stats.toolEnds}/${steps} tools and ended ${stats.reason}.`);
        }
      },
    },
    {
      name: "LangGraph.js createReactAgent",
      units: steps,
      run: async () => {
        const stats = await langGraph();
        if (stats.toolMessages !== steps)
          throw new Error(`LangGraph ran ${stats.toolMessages}/${steps} tools.`);
      },
    },
    {
      name: "bare loop (floor)",
      units: steps,
      run: async () => {
        replies.reset();
        const result = await runBareLoop({ query: "Run the scripted trajectory.", complete });
        if (result.toolCalls !== steps)
          throw new Error(`The bare loop ran ${result.toolCalls}/${steps} tools.`);
      },
    },
    {
      name: "Waddle, events off (for reference)",
      units: steps,
      run: async () => {
        const stats = await quietWaddle();
        if (stats.reason !== "answer_complete" || stats.toolEnds !== steps) {
          throw new Error(
            `Waddle (events off) ran ${stats.toolEnds}/${steps} tools and ended ${stats.reason}.`,
          );
        }
      },
    },
  ];
}

const medianOf = (values: readonly number[]) => getSummary(values).median;

/** Median over rounds of a per-round ratio: robust when load drifts during the benchmark. */
function pairedRatio(top: Measurement, bottom: Measurement): number {
  const ratios = top.perUnitUs.map((value, index) => value / bottom.perUnitUs[index]!);
  return getPercentile(
    [...ratios].sort((a, b) => a - b),
    50,
  );
}

/** One row per contender, and the ratios row, for one trajectory length. */
function addRows(input: {
  steps: number;
  measurements: readonly Measurement[];
  perStep: BenchTable;
  ratios: BenchTable;
}): void {
  const { steps, measurements } = input;
  for (const measurement of measurements) {
    const summary = getSummary(measurement.perUnitUs);
    input.perStep.rows.push([
      steps,
      measurement.name,
      round(summary.median, 2),
      round(summary.p90, 2),
      round(summary.min, 2),
      round(summary.max, 2),
      `${round(getRelativeIqr(measurement.perUnitUs) * 100, 1)} %`,
      measurement.runsPerSample,
    ]);
  }
  const [waddle, langGraph, bare] = measurements as [Measurement, Measurement, Measurement];
  input.ratios.rows.push([
    steps,
    round(medianOf(langGraph.perUnitUs) / medianOf(waddle.perUnitUs), 1),
    round(pairedRatio(langGraph, waddle), 1),
    round(medianOf(waddle.perUnitUs) / medianOf(bare.perUnitUs), 2),
    round(pairedRatio(waddle, bare), 2),
  ]);
}

/** docs/benchmarks.md §1: µs per step of Waddle, LangGraph.js and a bare loop on the same scripted trajectory. */
export async function runOverheadBench(context: BenchContext): Promise<BenchResult> {
  const rounds = context.quick ? 5 : 40;
  const perStep: BenchTable = {
    title: "µs per tool step (median over rounds, after warm-up)",
    columns: ["steps", "contender", "median µs", "p90 µs", "min µs", "max µs", "IQR/median", "runs/sample"],
    rows: [],
  };
  const ratios: BenchTable = {
    title: "ratios of medians (paired: median of per-round ratios)",
    columns: ["steps", "LangGraph ÷ Waddle", "paired", "Waddle ÷ bare", "paired"],
    rows: [],
  };
  const bySize = new Map<number, Measurement[]>();
  for (const steps of SIZES) {
    context.log(`${steps} steps: warm-up and ${rounds} rounds`);
    // One full collection before the warm-up, none between samples: a forced gc() shrinks V8's young
    // generation, and the samples right after it ran 2–3× slower for the allocating contenders.
    collectGarbage();
    const measurements = await measureInterleaved({
      contenders: createContenders(steps),
      rounds,
      warmupMs: context.quick ? 200 : 2_000,
      sampleMs: context.quick ? 5 : 25,
    });
    bySize.set(steps, measurements);
    addRows({ steps, measurements, perStep, ratios });
  }
  const [waddle, langGraph, bare] = bySize.get(RATIO_SIZE) as [Measurement, Measurement, Measurement];
  const overheadRatio = medianOf(langGraph.perUnitUs) / medianOf(waddle.perUnitUs);
  const floorRatio = medianOf(waddle.perUnitUs) / medianOf(bare.perUnitUs);
  return {
    tables: [perStep, ratios],
    lines: [`overhead-ratio: ${round(overheadRatio, 1)}`, `floor-ratio: ${round(floorRatio, 2)}`],
    targets: [
      {
        target: "overhead-ratio ≥ 20 (LangGraph ÷ Waddle at 50 steps)",
        measured: String(round(overheadRatio, 1)),
        met: overheadRatio >= 20,
      },
      {
        target: "floor-ratio ≤ 3 (Waddle ÷ bare loop at 50 steps)",
        measured: String(round(floorRatio, 2)),
        met: floorRatio <= 3,
      },
    ],
    notes: [
      "One process; the model answers instantly from a script; five no-op tools with zod args. Waddle runs " +
        "with events on (an onEvent that counts them); LangGraph's stream is consumed with streamMode " +
        '"updates"; the bare loop calls the model, JSON.parse, zod, the tool, and appends the observation.',
      `µs per step = time of a run ÷ its tool steps (the final-answer turn included in the run). Each of the ` +
        `${rounds} rounds times every contender once in a rotating order, after a 2 s warm-up; a sample ` +
        "repeats the run to last ≥ 25 ms. No gc() between samples: a forced full collection shrinks V8's " +
        "young generation and made the next samples 2–3× slower, which would measure the collector, not the loop.",
    ],
  };
}
