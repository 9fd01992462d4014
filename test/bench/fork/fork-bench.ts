import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import {
  buildCatalog,
  defineTool,
  ReactPlanner,
  type CallRecord,
  type LlmClient,
  type LlmResult,
} from "@waddle/planner";
import { fixtureReply, ScriptedClient, startOpenAiFixtureServer } from "@waddle/planner/testing";
import type { RunEvent, RunRecord } from "@waddle/protocol";
import { createWaddleServer, type WaddleServer } from "@waddle/server";
import { z } from "zod";
import type { BenchContext, BenchResult, BenchTable, TargetCheck } from "../bench-report.js";
import { round } from "../format-report.js";
import { getSummary, type Summary } from "../stats.js";

const STEPS = 50;
const TARGET_MS = 100;
const ANSWER = JSON.stringify({ next_node: "final_response", args: { answer: "forked" } });

/** What the replayed prefix of a fork of a `steps`-step run costs, in the planner and on a server. */
export interface ForkPrefixFigures {
  steps: number;
  /** `planner.fork` until its first live LLM call: rebuilding the state from the record. */
  plannerMs: Summary;
  /** `POST /api/runs/:id/fork` until its 202: checks, copying the prefix's events and records. */
  acceptMs: Summary;
  /** `POST /api/runs/:id/fork` until the fork's first live LLM request reaches the model. */
  prefixMs: Summary;
  /** Events copied per fork. */
  copiedEvents: number;
}

/**
 * Forks of a `steps`-step run at its last step with `reuse: "none"`, so that the first thing the fork does
 * after its prefix is a live model request: the time until that request is what the prefix cost. Shared
 * with the `tests` benchmark (`npm run bench -- tests`).
 */
export async function measureForkPrefix(options: {
  steps?: number;
  forks: number;
  log: (message: string) => void;
}): Promise<ForkPrefixFigures> {
  const steps = options.steps ?? STEPS;
  const plannerMs = await measurePlannerFork(steps, options.forks);
  options.log(`planner fork: median ${round(plannerMs.median, 2)} ms`);
  const server = await measureServerFork(steps, options.forks, options.log);
  return { steps, plannerMs, ...server };
}

function createStepTool() {
  return defineTool({
    name: "step",
    desc: "One step of a long run",
    sideEffects: "pure",
    args: z.object({ n: z.number() }),
    out: z.object({ n: z.number(), note: z.string() }),
    run: ({ n }) => ({ n, note: `step ${n} done` }),
  });
}

/** The planner alone: a recorded run of `steps` tool steps, forked at its answer step. */
async function measurePlannerFork(steps: number, forks: number): Promise<Summary> {
  const replies = Array.from({ length: steps }, (_, n) => JSON.stringify({ next_node: "step", args: { n } }));
  const catalog = buildCatalog({ tools: [createStepTool()] });
  const options = { maxIters: steps + 10 };
  const parent = new ReactPlanner({ llm: new ScriptedClient([...replies, ANSWER]), catalog, options });
  const events: RunEvent[] = [];
  const records: CallRecord[] = [];
  await parent.run("A long run", {
    runId: "parent",
    onEvent: (event) => events.push(event),
    calls: { record: (record) => records.push(record) },
  });
  const prefix = events.filter((event) => event.step < steps);
  const times: number[] = [];
  for (let index = 0; index < forks + 5; index += 1) {
    let liveAt = 0;
    const llm: LlmClient = {
      provider: "bench",
      model: "bench",
      complete: (): Promise<LlmResult> => {
        liveAt = performance.now();
        return Promise.resolve({ content: ANSWER });
      },
    };
    const planner = new ReactPlanner({ llm, catalog, options });
    const started = performance.now();
    await planner.fork(
      { fromStep: steps, query: "A long run", records, events: prefix },
      { runId: `fork-${index}`, onEvent: () => undefined },
    );
    // the first five warm the JIT
    if (index >= 5) times.push(liveAt - started);
  }
  return getSummary(times);
}

async function waitForStatus(server: WaddleServer, runId: string): Promise<RunRecord> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const run = await server.store.getRun(runId);
    if (run && (run.status === "finished" || run.status === "failed")) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not end (${run?.status})`);
    await sleep(2);
  }
}

async function post<T>(server: WaddleServer, pathname: string, body: unknown): Promise<T> {
  const response = await fetch(`${server.url}${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${pathname} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** A real server in this process (SQLite in a temporary folder) over the local OpenAI-compatible fixture. */
async function measureServerFork(
  steps: number,
  forks: number,
  log: (message: string) => void,
): Promise<Omit<ForkPrefixFigures, "steps" | "plannerMs">> {
  const liveRequests: number[] = [];
  const fixture = await startOpenAiFixtureServer({
    apiKey: "bench-key",
    models: ["bench-model"],
    fallback: () => {
      liveRequests.push(performance.now());
      return fixtureReply.finalAnswer("forked");
    },
  });
  const dir = mkdtempSync(path.join(tmpdir(), "waddle-bench-fork-"));
  const server = await createWaddleServer({
    port: 0,
    dataDir: dir,
    designerDir: null,
    logLevel: "silent",
    env: { OPENAI_API_KEY: "bench-key", OPENAI_BASE_URL: fixture.baseURL },
  });
  try {
    await post(server, "/api/agents", {
      version: 1,
      id: "long-run",
      name: "A long run",
      llm: { provider: "openai", model: "bench-model" },
      planner: { maxIters: steps + 10 },
      tools: [
        {
          name: "step",
          sideEffects: "pure",
          argsSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
          impl: { kind: "mock", output: { n: "{{args.n}}", note: "step done" } },
        },
      ],
    });
    fixture.enqueue(
      ...Array.from({ length: steps }, (_, n) => fixtureReply.json({ next_node: "step", args: { n } })),
      fixtureReply.finalAnswer("done"),
    );
    const { runId } = await post<{ runId: string }>(server, "/api/runs", {
      agentId: "long-run",
      query: "Go",
    });
    const parent = await waitForStatus(server, runId);
    if (parent.status !== "finished") throw new Error(`the ${steps}-step run ${parent.status}`);
    const acceptMs: number[] = [];
    const prefixMs: number[] = [];
    let copiedEvents = 0;
    for (let index = 0; index < forks + 3; index += 1) {
      const started = performance.now();
      const fork = await post<{ runId: string }>(server, `/api/runs/${runId}/fork`, {
        fromStep: steps,
        reuse: "none",
      });
      const accepted = performance.now();
      while (liveRequests.length <= index) await sleep(0);
      const live = liveRequests[index]!;
      const ended = await waitForStatus(server, fork.runId);
      if (ended.status !== "finished") throw new Error(`fork ${fork.runId} ${ended.status}`);
      copiedEvents = (await server.store.listEvents(fork.runId)).filter((event) => event.replayed).length;
      // the first three warm the JIT and the statement cache
      if (index < 3) continue;
      acceptMs.push(accepted - started);
      prefixMs.push(live - started);
    }
    log(`server fork: median ${round(getSummary(prefixMs).median, 1)} ms until live`);
    return { acceptMs: getSummary(acceptMs), prefixMs: getSummary(prefixMs), copiedEvents };
  } finally {
    await server.close();
    await fixture.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `npm run bench -- fork`: the replayed prefix of a fork of a 50-step run (goal: under 100 ms). */
export async function runForkBench(context: BenchContext): Promise<BenchResult> {
  const figures = await measureForkPrefix({ forks: context.quick ? 5 : 20, log: context.log });
  const row = (label: string, summary: Summary) => [
    label,
    summary.n,
    round(summary.median, 2),
    round(summary.p90, 2),
    round(summary.max, 2),
  ];
  const table: BenchTable = {
    title: `A fork of a ${figures.steps}-step run at its last step (ms)`,
    columns: ["what", "forks", "median", "p90", "max"],
    rows: [
      row("planner: rebuild until the first live call", figures.plannerMs),
      row("server: POST /fork until 202 (prefix copied)", figures.acceptMs),
      row("server: POST /fork until the first live model request", figures.prefixMs),
    ],
  };
  const targets: TargetCheck[] = [
    {
      target: `the replayed prefix of a ${figures.steps}-step run costs under ${TARGET_MS} ms (server, median)`,
      measured: `${round(figures.prefixMs.median, 1)} ms`,
      met: figures.prefixMs.median < TARGET_MS,
    },
  ];
  return {
    tables: [table],
    lines: [
      `fork-prefix-ms: ${round(figures.prefixMs.median, 1)}`,
      `fork-planner-rebuild-ms: ${round(figures.plannerMs.median, 2)}`,
      `fork-copied-events: ${figures.copiedEvents}`,
    ],
    targets,
    notes: [
      `The parent ran ${figures.steps} tool steps and an answer on the local OpenAI-compatible fixture; each fork starts at the answer step with reuse "none", so its first act after the prefix is a live model request, and the time until the fixture receives it is the prefix's cost: the checks, copying ${figures.copiedEvents} events and the step records, queueing, building the planner and rebuilding its state.`,
      "The planner row is `planner.fork` alone, from the record in memory. The first forks of each kind warm the JIT and are not counted.",
    ],
  };
}
