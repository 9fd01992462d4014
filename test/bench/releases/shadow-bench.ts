// The shadow part of `npm run bench -- releases`: what a 20-case shadow comparison costs, on the offline model.
//
//   measureShadow(options?: { quick?: boolean; log?: (message: string) => void }): Promise<ShadowBenchRow>
//
// ShadowBenchRow is `{name, cases, wallMs, perCaseMs}` plus `p90WallMs`, `rounds`, `candidateRunMs` (the
// mean time of one candidate run, as the report measures it: cases run four at a time, so wallMs is about
// cases × candidateRunMs / 4 plus the reading and storing), and `sameTools` and `notRecorded` of the last
// round (a sanity check: an unchanged candidate reproduces every case from the recordings, so sameTools ===
// cases and notRecorded === 0). `wallMs` is the median over `rounds` of `POST /api/agents/:id/shadow` from
// request to answer (the report stored), after one warm-up round. The offline model paces its final answer
// at 30 ms a chunk for the canvas, which is most of a candidate run's time.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { AgentRecord, ShadowReport } from "@waddle/protocol";
import { createWaddleServer, type WaddleServer } from "@waddle/server";
import { getSummary } from "../stats.js";

const AGENT = "support-triage";
const CASES = 20;

/** One row of the releases benchmark's shadow table. */
export interface ShadowBenchRow {
  name: string;
  cases: number;
  /** Median wall time of one shadow comparison of `cases` cases, ms. */
  wallMs: number;
  p90WallMs: number;
  perCaseMs: number;
  rounds: number;
  candidateRunMs: number;
  sameTools: number;
  notRecorded: number;
}

const QUERIES = [
  "My invoice shows a duplicate charge",
  "Where is my refund?",
  "I was billed twice this month",
  "How do I change my plan?",
  "The app crashes when I log in",
];

async function request<T>(
  server: WaddleServer,
  pathname: string,
  init: { method?: string; json?: unknown } = {},
) {
  const response = await fetch(`${server.url}${pathname}`, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    ...(init.json === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(init.json) }),
  });
  if (!response.ok) throw new Error(`${pathname} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function waitForEnd(server: WaddleServer, runId: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const run = await server.store.getRun(runId);
    if (run && run.status !== "queued" && run.status !== "running") return run.status;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not end (${run?.status})`);
    await sleep(2);
  }
}

/**
 * A real server in this process (SQLite in a temporary folder, no LLM key: the offline model) with the
 * support-triage example released to production and 20 runs served through it; then the same spec saved
 * again as the candidate, and `POST /api/agents/support-triage/shadow {candidate, limit: 20}` timed.
 */
export async function measureShadow(
  options: { quick?: boolean; log?: (message: string) => void } = {},
): Promise<ShadowBenchRow> {
  const log = options.log ?? (() => undefined);
  const rounds = options.quick ? 3 : 10;
  const dir = mkdtempSync(path.join(tmpdir(), "waddle-bench-shadow-"));
  const server = await createWaddleServer({
    port: 0,
    dataDir: dir,
    designerDir: null,
    logLevel: "silent",
    env: {},
  });
  try {
    const agent = await request<AgentRecord>(server, `/api/agents/${AGENT}`);
    await request(server, `/api/agents/${AGENT}/releases`, {
      json: { version: agent.version, channel: "production" },
    });
    for (let index = 0; index < CASES; index += 1) {
      const query = `${QUERIES[index % QUERIES.length]!} (customer ${index + 1})`;
      const { runId } = await request<{ runId: string }>(server, "/api/runs", {
        json: { agentId: AGENT, query },
      });
      const status = await waitForEnd(server, runId);
      if (status !== "finished") throw new Error(`baseline run ${runId} ${status}`);
    }
    const saved = await request<{ version: number }>(server, `/api/agents/${AGENT}`, {
      method: "PUT",
      json: {
        spec: { ...agent.spec, description: `${agent.spec.description} (candidate)` },
        baseVersion: agent.version,
      },
    });
    log(`shadow: ${CASES} production runs of ${AGENT} v${agent.version}; candidate v${saved.version}`);
    const times: number[] = [];
    let last: ShadowReport | undefined;
    for (let round = 0; round <= rounds; round += 1) {
      const started = performance.now();
      last = await request<ShadowReport>(server, `/api/agents/${AGENT}/shadow`, {
        json: { candidate: saved.version, limit: CASES },
      });
      // round 0 warms the JIT and the statement caches
      if (round > 0) times.push(performance.now() - started);
      if (last.cases.length !== CASES)
        throw new Error(`the shadow replayed ${last.cases.length} cases, not ${CASES}`);
    }
    const summary = getSummary(times);
    log(`shadow: median ${summary.median.toFixed(1)} ms for ${CASES} cases`);
    return {
      name: `${CASES}-case shadow, offline model (${AGENT}, unchanged candidate)`,
      cases: CASES,
      wallMs: summary.median,
      p90WallMs: summary.p90,
      perCaseMs: summary.median / CASES,
      rounds,
      candidateRunMs: last!.totals.candidate.durationMs / CASES,
      sameTools: last!.totals.sameTools,
      notRecorded: last!.totals.notRecorded,
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
