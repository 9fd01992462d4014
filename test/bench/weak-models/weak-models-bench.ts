import {
  MALFORMED_CORPUS,
  runMalformedCase,
  summarizeCorpus,
  type CorpusResult,
} from "@waddle/planner/testing";
import type { BenchContext, BenchResult, BenchTable, TargetCheck } from "../bench-report.js";
import { round } from "../format-report.js";

const percent = (part: number, whole: number) => (whole === 0 ? 100 : (100 * part) / whole);

/** One row per kind of malformation: how many cases, how many passed, what they cost, what salvaged them. */
function getKindTable(results: readonly CorpusResult[]): BenchTable {
  const kinds = new Map<string, CorpusResult[]>();
  for (const result of results) kinds.set(result.kind, [...(kinds.get(result.kind) ?? []), result]);
  const rows = [...kinds].map(([kind, items]) => {
    const extra = items.reduce((total, item) => total + Math.max(0, item.extraCalls), 0);
    const rules = new Set(items.flatMap((item) => item.salvageRules));
    return [
      kind,
      items.length,
      items.filter((item) => item.failures.length === 0).length,
      round(extra / items.length, 2),
      [...rules].slice(0, 6).join(", ") || "—",
    ];
  });
  return {
    title: "By kind of malformation",
    columns: ["kind", "cases", "passed", "extra LLM calls per reply", "salvage rules seen (first 6)"],
    rows,
  };
}

/**
 * docs/benchmarks.md §8: the malformed-reply corpus of @waddle/planner (what weak models send, each case with
 * the outcome it must reach) run through the real ReactPlanner with a scripted model.
 */
export async function runWeakModelsBench(context: BenchContext): Promise<BenchResult> {
  const results: CorpusResult[] = [];
  const started = performance.now();
  for (const corpusCase of MALFORMED_CORPUS) results.push(await runMalformedCase(corpusCase));
  const elapsedMs = performance.now() - started;
  context.log(`${results.length} cases in ${round(elapsedMs, 0)} ms`);
  const summary = summarizeCorpus(MALFORMED_CORPUS, results);
  const preserved = percent(summary.answersPreserved, summary.answersExpected);
  const targets: TargetCheck[] = [
    {
      target: "answers preserved: 100 %",
      measured: `${summary.answersPreserved}/${summary.answersExpected} (${round(preserved, 1)} %)`,
      met: summary.answersPreserved === summary.answersExpected,
    },
    {
      target: "mean extra LLM calls per malformed reply ≤ 0.3",
      measured: String(round(summary.meanExtraCalls, 3)),
      met: summary.meanExtraCalls <= 0.3,
    },
    {
      target: "runs ending no_path while the model said something usable: 0",
      measured: String(summary.noPathWithUsable),
      met: summary.noPathWithUsable === 0,
    },
    {
      target: "tools run with a placeholder: 0",
      measured: String(summary.placeholderRuns),
      met: summary.placeholderRuns === 0,
    },
  ];
  const overview: BenchTable = {
    title: `Malformed-reply corpus (${summary.cases} cases), through ReactPlanner with a scripted model`,
    columns: ["metric", "measured", "goal"],
    rows: [
      ["cases that reached their expected outcome", `${summary.passed}/${summary.cases}`, "all"],
      [
        "answers preserved",
        `${round(preserved, 1)} % (${summary.answersPreserved}/${summary.answersExpected})`,
        "100 %",
      ],
      ["mean extra LLM calls per malformed reply", round(summary.meanExtraCalls, 3), "≤ 0.3"],
      ["runs ending no_path while the model said something usable", summary.noPathWithUsable, "0"],
      ["tools run with a placeholder", summary.placeholderRuns, "0"],
    ],
  };
  const failed = results.filter((result) => result.failures.length > 0);
  return {
    tables: [overview, getKindTable(results)],
    lines: [
      `weak-models: ${summary.passed}/${summary.cases} cases, answers ${summary.answersPreserved}/${summary.answersExpected}, ` +
        `extra calls ${round(summary.meanExtraCalls, 3)}/reply, no_path with usable ${summary.noPathWithUsable}, ` +
        `placeholder runs ${summary.placeholderRuns}`,
      ...failed.map((result) => `failed ${result.id}: ${result.failures.join("; ")}`),
    ],
    targets,
    notes: [
      "The corpus is packages/planner/src/testing/malformed-corpus.ts: each case is the malformed reply a weak " +
        "model sent, then what that model answers when asked again, and the outcome the run must reach; the " +
        "same cases run as a vitest test (malformed-corpus.test.ts). The agent has search, route (an enum arg), " +
        "get_weather, combine (a join) and send (needs approval); the model answers instantly.",
      "Extra LLM calls are the run's calls less the calls the same run needs when the reply is written as meant " +
        "(idealCalls); a case that needs a call is one whose reply lacked something only the model can give: an " +
        "answer (final_response without one, thought-only, prose before the JSON one), a value (a placeholder " +
        "arg), or its end (a cut-off reply, never run). Budget cases count their answer turn as ideal.",
      "Answers preserved: cases whose model gave an answer, and whose run ended with that text in its answer.",
    ],
  };
}
