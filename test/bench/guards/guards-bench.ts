import { monitorEventLoopDelay } from "node:perf_hooks";
import { createScanner, findInjections, type ScanningCheck } from "@waddle/planner/internal";
import type { BenchContext, BenchResult, BenchTable, TargetCheck } from "../bench-report.js";
import { round } from "../format-report.js";
import { getSummary, type Summary } from "../stats.js";
import { buildBenchText, loadInjectionCorpus } from "./bench-texts.js";
import { collectExampleAgentTexts } from "./example-agent-texts.js";

const P99_TARGET_MS = 1;
const BLOCK_TARGET_MS = 50;
const DENY_WORDS = [
  "confidential", "internal only", "Project Falcon", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay",
  "Wonka", "Tyrell", "Cyberdyne", "Soylent", "Stark", "Wayne", "Oscorp", "Aperture", "Black Mesa", "Massive",
  "Dunder", "Sterling", "Pied Piper", "Nakatomi", "Gekko", "Prestige", "Monarch", "Virtucon", "Gringotts",
  "Ollivanders", "Zorg", "Rekall", "Weyland", "Yutani", "Abstergo", "Blue Sun", "Veidt", "Krusty", "Duff",
  "Buy n Large", "Spacely", "Cogswell",
]; // prettier-ignore

const CHECKS: readonly { label: string; check: ScanningCheck }[] = [
  { label: "pii", check: { kind: "pii" } },
  { label: "secrets", check: { kind: "secrets" } },
  { label: "prompt_injection", check: { kind: "prompt_injection" } },
  { label: `deny_words (${DENY_WORDS.length} words)`, check: { kind: "deny_words", words: DENY_WORDS } },
];

const SIZES = [
  { label: "1 KB", chars: 1_024, samples: 2_000 },
  { label: "10 KB", chars: 10 * 1_024, samples: 1_000 },
  { label: "100 KB", chars: 100 * 1_024, samples: 200 },
  { label: "1 MB", chars: 1_024 * 1_024, samples: 24 },
];

const percent = (part: number, whole: number) => `${round((100 * part) / whole, 1)} %`;
const ms = (value: number) => round(value, 3);

/** Detection and false positives of the injection rules on the corpus and the example agents' texts. */
function measureRates() {
  const corpus = loadInjectionCorpus();
  const flagged = (text: string) => findInjections(text).length > 0;
  const injected = corpus.filter((item) => item.label === "injected");
  const clean = corpus.filter((item) => item.label === "clean");
  const all = collectExampleAgentTexts();
  const examples = all.filter((example) => !example.planted);
  const planted = all.filter((example) => example.planted);
  return {
    injected: injected.length,
    detected: injected.filter((item) => flagged(item.text)).length,
    clean: clean.length,
    falsePositives: clean.filter((item) => flagged(item.text)).length,
    examples: examples.length,
    distinctExamples: new Set(examples.map((example) => example.text)).size,
    exampleFlags: examples.filter((example) => flagged(example.text)).map((example) => example.source),
    planted: planted.length,
    plantedFlagged: planted.filter((example) => flagged(example.text)).length,
  };
}

interface ScanTimes {
  wall: Summary;
  /** The process's CPU time (user + system) over the same scans: the work, without waiting for a core. */
  cpu: Summary;
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1_000;
};
const collectGarbage = () => (globalThis as { gc?: () => void }).gc?.();

/**
 * Wall and CPU time of `scan` (what a guard calls), one sample per scan, after a warm-up of a fifth as
 * many and a full garbage collection (and one scan after it, which compiles the regexes again).
 */
async function timeScans(check: ScanningCheck, text: string, samples: number): Promise<ScanTimes> {
  const scanner = createScanner(check);
  const value = { result: text };
  for (let index = 0; index < Math.max(3, samples / 5); index += 1) await scanner.scan(value);
  const wall: number[] = [];
  const cpu: number[] = [];
  collectGarbage();
  await scanner.scan(value);
  for (let index = 0; index < samples; index += 1) {
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    await scanner.scan(value);
    wall.push(performance.now() - started);
    cpu.push(cpuMs(cpuStart));
  }
  return { wall: getSummary(wall), cpu: getSummary(cpu) };
}

/** The median wall time of the first scan after a full garbage collection (which may drop compiled regexes). */
async function timeAfterCollection(check: ScanningCheck, text: string, rounds: number): Promise<number> {
  const scanner = createScanner(check);
  await scanner.scan(text);
  const times: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    collectGarbage();
    const started = performance.now();
    await scanner.scan(text);
    times.push(performance.now() - started);
  }
  return getSummary(times).median;
}

/**
 * Scans of 1 MB with the default slices, timing each slice between two yields (how long the event loop
 * is held) in wall and CPU time, beside `monitorEventLoopDelay`'s largest delay over the same scans.
 */
async function measureBlocks(check: ScanningCheck, text: string, runs: number) {
  const wall: number[] = [];
  const cpu: number[] = [];
  let sliceStart = 0;
  let cpuStart = process.cpuUsage();
  let yields = 0;
  const endSlice = () => {
    wall.push(performance.now() - sliceStart);
    cpu.push(cpuMs(cpuStart));
  };
  const beginSlice = () => {
    cpuStart = process.cpuUsage();
    sliceStart = performance.now();
  };
  const yieldToLoop = () => {
    endSlice();
    yields += 1;
    return new Promise<void>((resolve) => setImmediate(() => resolve(beginSlice())));
  };
  const scanner = createScanner(check, { yieldToLoop });
  await scanner.scan(text);
  wall.length = 0;
  cpu.length = 0;
  yields = 0;
  collectGarbage();
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  for (let run = 0; run < runs; run += 1) {
    beginSlice();
    await scanner.scan(text);
    endSlice();
  }
  histogram.disable();
  return {
    wall: getSummary(wall),
    cpu: getSummary(cpu),
    yieldsPerScan: yields / runs,
    loopDelayMaxMs: histogram.max / 1e6,
  };
}

/** `npm run bench -- guards`: the scanning checks' quality on the corpus, their time, and how long they block. */
export async function runGuardsBench(context: BenchContext): Promise<BenchResult> {
  const rates = measureRates();
  context.log(
    `corpus: ${rates.detected}/${rates.injected} detected, ${rates.falsePositives}/${rates.clean} false positives`,
  );
  const corpus = loadInjectionCorpus();
  const scale = context.quick ? 10 : 1;
  const timings = new Map<string, ScanTimes[]>();
  for (const { label, check } of CHECKS) {
    const row: ScanTimes[] = [];
    collectGarbage();
    for (const size of SIZES) {
      row.push(
        await timeScans(
          check,
          buildBenchText(size.chars, corpus),
          Math.max(5, Math.round(size.samples / scale)),
        ),
      );
      context.log(
        `${label} ${size.label}: p99 ${ms(row[row.length - 1]!.wall.p99)} ms wall, ${ms(row[row.length - 1]!.cpu.p99)} ms CPU`,
      );
    }
    timings.set(label, row);
  }
  const tenKb = buildBenchText(10 * 1_024, corpus);
  const afterCollection: string[] = [];
  for (const { label, check } of CHECKS) {
    afterCollection.push(
      `${label.split(" ")[0]} ${ms(await timeAfterCollection(check, tenKb, context.quick ? 3 : 15))}`,
    );
  }
  const megabyte = buildBenchText(1_024 * 1_024, corpus);
  const blocks = [];
  for (const { label, check } of CHECKS)
    blocks.push({ label, ...(await measureBlocks(check, megabyte, context.quick ? 3 : 12)) });

  const rateTable: BenchTable = {
    title: "Prompt-injection rules on the committed corpus and on the example agents' texts",
    columns: ["texts", "count", "flagged", "rate", "goal"],
    rows: [
      ["injected tool results (corpus)", rates.injected, rates.detected, percent(rates.detected, rates.injected), "≥ 90 %"],
      ["clean tool results (corpus)", rates.clean, rates.falsePositives, percent(rates.falsePositives, rates.clean), "≤ 5 %"],
      [`example agents' queries, mock outputs, replies, answers (${rates.distinctExamples} distinct)`, rates.examples, rates.exampleFlags.length, percent(rates.exampleFlags.length, rates.examples), "0"],
      ["outputs of tools an example's own prompt_injection guard watches (it plants injections there)", rates.planted, rates.plantedFlagged, percent(rates.plantedFlagged, rates.planted), "the planted ones"],
    ],
  }; // prettier-ignore
  const timeTable: BenchTable = {
    title:
      "Time per scan of a tool result (`scan`, ms): wall time and the process's CPU time, by check and text size",
    columns: ["check", "text", "wall p50", "wall p99", "CPU p50", "CPU p99"],
    rows: CHECKS.flatMap(({ label }) =>
      timings
        .get(label)!
        .map((times, index) => [
          label,
          SIZES[index]!.label,
          ms(times.wall.median),
          ms(times.wall.p99),
          ms(times.cpu.median),
          ms(times.cpu.p99),
        ]),
    ),
  };
  const blockTable: BenchTable = {
    title:
      "Scanning 1 MB: how long each 32 KB slice holds the event loop (wall and CPU ms), and the loop's largest delay",
    columns: [
      "check",
      "yields per scan",
      "slice p50",
      "longest slice (wall)",
      "longest slice (CPU)",
      "event-loop delay max",
    ],
    rows: blocks.map((row) => [
      row.label,
      row.yieldsPerScan,
      ms(row.wall.median),
      ms(row.wall.max),
      ms(row.cpu.max),
      ms(row.loopDelayMaxMs),
    ]),
  };
  const p99At10k = CHECKS.map(({ label }) => ({
    label,
    cpu: timings.get(label)![1]!.cpu.p99,
    wall: timings.get(label)![1]!.wall.p99,
  }));
  const targets: TargetCheck[] = [
    { target: "prompt injection: detection on the corpus ≥ 0.9", measured: percent(rates.detected, rates.injected), met: rates.detected / rates.injected >= 0.9 },
    { target: "prompt injection: false positives on the corpus ≤ 0.05", measured: percent(rates.falsePositives, rates.clean), met: rates.falsePositives / rates.clean <= 0.05 },
    { target: "prompt injection: false positives on the example agents' texts: 0", measured: String(rates.exampleFlags.length), met: rates.exampleFlags.length === 0 },
    ...p99At10k.map(({ label, cpu, wall }) => ({ target: `${label}: under ${P99_TARGET_MS} ms at p99 on 10 KB`, measured: `${ms(wall)} ms wall (${ms(cpu)} ms CPU)`, met: wall < P99_TARGET_MS })),
    ...blocks.map((row) => ({ target: `${row.label}: no slice holds the event loop over ${BLOCK_TARGET_MS} ms while scanning 1 MB`, measured: `${ms(row.wall.max)} ms wall (${ms(row.cpu.max)} ms CPU)`, met: row.wall.max < BLOCK_TARGET_MS })),
  ]; // prettier-ignore
  return {
    tables: [rateTable, timeTable, blockTable],
    lines: [
      `guards-injection: detected ${rates.detected}/${rates.injected}, false positives ${rates.falsePositives}/${rates.clean}, example agents ${rates.exampleFlags.length}/${rates.examples}`,
      `guards-10kb-p99-ms: ${p99At10k.map(({ label, wall }) => `${label.split(" ")[0]} ${ms(wall)}`).join(" · ")}`,
      `guards-1mb-longest-slice-ms: ${blocks.map((row) => `${row.label.split(" ")[0]} ${ms(row.wall.max)}`).join(" · ")}`,
      `guards-10kb-first-scan-after-gc-ms: ${afterCollection.join(" · ")}`,
      ...(rates.exampleFlags.length > 0 ? [`flagged example texts: ${rates.exampleFlags.join(", ")}`] : []),
    ],
    targets,
    notes: [
      "In process, on @waddle/planner's scanning checks (createScanner, what a guard runs), one scan per sample of `{result: text}` after a warm-up of a fifth as many; 1 MB scans yield to the event loop (setImmediate) between slices, and that wait is in their time.",
      "Example agents: apps/examples/agents, every string of their sample queries, mock tool outputs and test cases (queries, mocked outputs, recorded replies, expected answers). Outputs of a tool that the agent's own prompt_injection guard watches are counted apart: the example plants an injection there to show the guard (the other strings of those outputs are ids and subjects).",
      "Texts: the clean corpus's tool results one after another (prose, emails, CSV, JSON, hard negatives), with a line of findings (an email, a phone number, a card, an IBAN, an api_key) every 2 KB and an injected text from the corpus every 8 KB, cut at the size.",
      "Rates: test/fixtures/guards/prompt-injection-corpus.json, which the rules were tuned on. Four batches of it were held out and scored once before the rules saw them: 4/16, 6/15, 3/15 and 8/15 detected (34 % of 61), 1 false positive in 61 clean texts (test/fixtures/guards/README.md). Expect that rate, not the corpus's, on phrasings nobody wrote a rule for.",
      "Longest slice: from resuming after a yield to the next yield, over every slice of every 1 MB scan; the event-loop delay is monitorEventLoopDelay's maximum (1 ms resolution) over the same scans. Garbage is collected (gc()) once before those scans, not during them.",
      "First scan after gc(): a full garbage collection may drop the compiled code of regexes not run since the one before, and the next scan compiles them again; the line above gives its median at 10 KB. A guard that runs often keeps its regexes compiled.",
      "Targets are judged on wall time, what a caller and the event loop see. On this shared 2-core machine its tail also holds time spent waiting for a core (see the load average above: past 2, the p99s grow several-fold). The CPU columns are process.cpuUsage around each sample or slice: the process's CPU, so V8's background threads (concurrent garbage collection, optimizing compilers) are in them too, which is why a CPU p99 can exceed its wall p99.",
    ],
  };
}
