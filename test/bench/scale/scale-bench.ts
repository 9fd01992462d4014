import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { RunsListResponse, StartRunResponse, TERMINAL_RUN_STATUSES, type RunRecord } from "@waddle/protocol";
import type { z } from "zod";
import type { BenchContext, BenchResult, BenchTable } from "../bench-report.js";
import { round } from "../format-report.js";
import { getSummary } from "../stats.js";
import { getServerCommand, readMemory, startServerProcess, type ServerProcess } from "./server-process.js";

const AGENT_ID = "sharded-research";
const QUERY = "Brief me on solid-state batteries";

async function request<T extends z.ZodType>(input: {
  server: ServerProcess;
  pathname: string;
  body?: unknown;
  schema: T;
}): Promise<z.output<T>> {
  const { server, pathname, body } = input;
  const response = await fetch(`${server.url}${pathname}`, {
    method: body === undefined ? "GET" : "POST",
    ...(body === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${pathname} answered ${response.status}: ${await response.text()}`);
  return input.schema.parse(await response.json());
}

/** Polls the run list until every run in `ids` has ended. */
async function waitForRuns(server: ServerProcess, ids: ReadonlySet<string>): Promise<RunRecord[]> {
  for (;;) {
    const listed = await request({
      server,
      pathname: `/api/runs?agentId=${AGENT_ID}&limit=1000`,
      schema: RunsListResponse,
    });
    const runs = listed.runs.filter((run) => ids.has(run.id));
    if (runs.length === ids.size && runs.every((run) => TERMINAL_RUN_STATUSES.has(run.status))) return runs;
    await sleep(100);
  }
}

/** Starts `count` runs at once and waits for all of them to end, sampling the server's RSS meanwhile. */
async function runBatch(server: ServerProcess, count: number) {
  let peakSampledMb = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peakSampledMb = Math.max(peakSampledMb, readMemory(server.pid).rssMb);
      await sleep(25);
    }
  })();
  const startedAt = Date.now();
  const started = await Promise.all(
    Array.from({ length: count }, () =>
      request({
        server,
        pathname: "/api/runs",
        body: { agentId: AGENT_ID, query: QUERY },
        schema: StartRunResponse,
      }),
    ),
  );
  const runs = await waitForRuns(server, new Set(started.map((run) => run.runId)));
  sampling = false;
  await sampler;
  const finishedAt = Math.max(...runs.map((run) => Date.parse(run.finishedAt ?? "")));
  const durations = runs.map((run) => Date.parse(run.finishedAt ?? "") - Date.parse(run.startedAt ?? ""));
  const statuses = new Map<string, number>();
  for (const run of runs) statuses.set(run.status, (statuses.get(run.status) ?? 0) + 1);
  return {
    completionMs: finishedAt - startedAt,
    perRun: getSummary(durations),
    events: runs.reduce((total, run) => total + (run.lastSeq ?? 0), 0),
    statuses: [...statuses].map(([status, n]) => `${n} ${status}`).join(", "),
    peakSampledMb,
  };
}

type Batch = Awaited<ReturnType<typeof runBatch>>;

function getBatchRow(count: number, batch: Batch): (string | number)[] {
  return [
    count,
    batch.completionMs,
    round(batch.perRun.median, 0),
    round(batch.perRun.p90, 0),
    batch.events,
    batch.statuses,
    round(batch.peakSampledMb, 1),
  ];
}

/** docs/benchmarks.md §5: 100 concurrent runs of an example agent on one server process: peak RSS and time. */
export async function runScaleBench(context: BenchContext): Promise<BenchResult> {
  const concurrent = context.quick ? 20 : 100;
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-bench-scale-"));
  const server = await startServerProcess({
    WADDLE_DATA_DIR: dataDir,
    WADDLE_MAX_CONCURRENT_RUNS: String(concurrent),
  });
  try {
    await sleep(1_000);
    const idle = readMemory(server.pid);
    context.log(`idle RSS ${round(idle.rssMb, 1)} MB; one run alone`);
    const single = await runBatch(server, 1);
    context.log(`${concurrent} runs at once`);
    const batch = await runBatch(server, concurrent);
    const after = readMemory(server.pid);
    const table: BenchTable = {
      title: `${AGENT_ID} (offline model, mock tools with 100–700 ms latency) on one server process`,
      columns: [
        "runs at once",
        "all done in ms",
        "per run median ms",
        "per run p90 ms",
        "events stored",
        "outcome",
        "RSS peak sampled MB",
      ],
      rows: [getBatchRow(1, single), getBatchRow(concurrent, batch)],
    };
    const memory: BenchTable = {
      title: "server RSS (from /proc: VmRSS, and VmHWM for the peak since the process started)",
      columns: ["idle after start MB", "after the runs MB", "peak (VmHWM) MB"],
      rows: [[round(idle.rssMb, 1), round(after.rssMb, 1), round(after.peakRssMb, 1)]],
    };
    return {
      tables: [table, memory],
      lines: [`peak-rss-mb: ${round(after.peakRssMb, 1)}`, `completion-ms: ${batch.completionMs}`],
      targets: [
        {
          target: `≤ 300 MB peak RSS with ${concurrent} concurrent runs`,
          measured: `${round(after.peakRssMb, 1)} MB`,
          met: after.peakRssMb <= 300,
        },
      ],
      notes: [
        `The server runs in its own process (node ${getServerCommand().join(" ")}), with ` +
          `WADDLE_MAX_CONCURRENT_RUNS=${concurrent}, a temporary SQLite data dir, the example agents and tools, ` +
          "and info logging to a pipe. The runs are started with POST /api/runs all at once, then polled with " +
          "GET /api/runs every 100 ms; completion is the latest finishedAt minus the moment of the first POST.",
      ],
    };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
