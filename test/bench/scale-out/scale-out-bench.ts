import { setTimeout as sleep } from "node:timers/promises";
import type { RunEvent, RunRecord } from "@waddle/protocol";
import pg from "pg";
import { io as connect } from "socket.io-client";
import type { BenchContext, BenchResult, BenchTable } from "../bench-report.js";
import { round } from "../format-report.js";
import { getSummary } from "../stats.js";
import { readMemory, type ServerProcess } from "../scale/server-process.js";
import { call, startQueueMode, startSqlite, type BenchDeployment } from "./scale-out-cluster.js";

const mockTool = (name: string, latencyMs: number) => ({
  name,
  sideEffects: "read",
  impl: { kind: "mock", latencyMs, output: { done: name } },
});
const chain = (id: string, count: number, latencyMs: number) => {
  const tools = Array.from({ length: count }, (_, index) => mockTool(`step_${index + 1}`, latencyMs));
  return {
    version: 1,
    id,
    name: id,
    tools,
    hints: { ordering_hints: tools.map((tool) => tool.name) },
    planner: { maxIters: count + 5 },
  };
};
/** A short run: one instant tool, then the answer (about 15 events). */
const SHORT = chain("short", 1, 0);
/** About 100 events a second for 5 s: 50 steps of 100 ms. */
const PACED = chain("paced", 50, 100);
/** Long enough to stay in flight while 1,000 are started: 3 steps of 4 s. */
const SLOW = chain("slow", 3, 4_000);
/** For the takeover: 3 steps of 1.5 s. */
const TAKEOVER = chain("takeover", 3, 1_500);
const AGENTS = [SHORT, PACED, SLOW, TAKEOVER];

async function addAgents(server: ServerProcess): Promise<void> {
  for (const agent of AGENTS) await call(server, "/api/agents", agent);
}

const startRun = async (server: ServerProcess, agentId: string) =>
  (await call<{ runId: string }>(server, "/api/runs", { agentId, query: "go" })).runId;

async function waitForEnds(server: ServerProcess, agentId: string, ids: ReadonlySet<string>) {
  for (;;) {
    const { runs } = await call<{ runs: RunRecord[] }>(server, `/api/runs?agentId=${agentId}&limit=1000`);
    const mine = runs.filter((run) => ids.has(run.id));
    if (mine.length === ids.size && mine.every((run) => run.finishedAt !== null)) return mine;
    await sleep(100);
  }
}

/** Short runs started round-robin on every instance, all at once: runs completed per second. */
async function measureThroughput(deployment: BenchDeployment, count: number) {
  const startedAt = Date.now();
  const ids = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      startRun(deployment.instances[index % deployment.instances.length]!, "short"),
    ),
  );
  const runs = await waitForEnds(deployment.instances[0]!, "short", new Set(ids));
  const lastEnd = Math.max(...runs.map((run) => Date.parse(run.finishedAt!)));
  const finished = runs.filter((run) => run.status === "finished").length;
  return { runsPerSecond: (count * 1_000) / (lastEnd - startedAt), finished };
}

/**
 * Ten paced runs at once (about 1,000 events a second in all) followed by a viewer on `viewerAt`: the
 * delay from an event's `ts` (stamped by the planner on the worker) to its arrival, for live events.
 */
async function measureLiveLatency(viewerAt: ServerProcess, startAt: ServerProcess, runs: number) {
  const socket = connect(viewerAt.url, { transports: ["websocket"], reconnection: false });
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const latencies: number[] = [];
  const seen = new Map<string, Set<number>>();
  let duplicates = 0;
  let firstTs = Infinity;
  let lastTs = 0;
  let events = 0;
  socket.on("event", (event: RunEvent) => {
    const now = Date.now();
    const seqs = seen.get(event.runId) ?? new Set<number>();
    if (seqs.has(event.seq)) duplicates += 1;
    seqs.add(event.seq);
    seen.set(event.runId, seqs);
    events += 1;
    firstTs = Math.min(firstTs, event.ts);
    lastTs = Math.max(lastTs, event.ts);
    if (now - event.ts < 60_000) latencies.push(now - event.ts);
  });
  const ids = await Promise.all(Array.from({ length: runs }, () => startRun(startAt, "paced")));
  for (const runId of ids) socket.emit("subscribe", { runId, afterSeq: 0 });
  const ended = await waitForEnds(startAt, "paced", new Set(ids));
  await sleep(500);
  socket.close();
  const stored = ended.reduce((total, run) => total + (run.lastSeq ?? 0), 0);
  const missing = stored - [...seen.values()].reduce((total, seqs) => total + seqs.size, 0);
  return {
    summary: getSummary(latencies),
    rate: (events * 1_000) / Math.max(1, lastTs - firstTs),
    events,
    duplicates,
    missing,
  };
}

/** `count` slow runs started, then every instance's RSS while they are all queued or running. */
async function measureInFlightMemory(deployment: BenchDeployment, count: number) {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 50) {
    const batch = Math.min(50, count - index);
    ids.push(
      ...(await Promise.all(
        Array.from({ length: batch }, (_, offset) =>
          startRun(deployment.instances[(index + offset) % deployment.instances.length]!, "slow"),
        ),
      )),
    );
  }
  await sleep(1_500);
  const { runs } = await call<{ runs: RunRecord[] }>(
    deployment.instances[0]!,
    `/api/runs?agentId=slow&limit=1000`,
  );
  const running = runs.filter((run) => run.status === "running").length;
  const queued = runs.filter((run) => run.status === "queued").length;
  const rss = deployment.instances.map((instance) => readMemory(instance.pid).rssMb);
  return { rss, running, queued, inFlight: ids.length };
}

/** Kills the worker that runs a takeover run mid-step: time until another worker continues it. */
async function measureTakeover(deployment: BenchDeployment, databaseUrl: string) {
  const api = deployment.instances[0]!;
  const runId = await startRun(api, "takeover");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let owner: string | undefined;
    for (;;) {
      const { rows } = await client.query("SELECT owner, last_seq FROM runs WHERE id = $1", [runId]);
      owner = rows[0]?.owner as string | undefined;
      if (owner && (rows[0]?.last_seq as number) > 12) break;
      await sleep(20);
    }
    const pid = Number(owner.split("-")[0]);
    const worker = deployment.instances.find((instance) => instance.pid === pid);
    if (!worker) throw new Error(`no instance with pid ${pid}`);
    worker.child.kill("SIGKILL");
    const killedAt = Date.now();
    for (;;) {
      const { events } = await call<{ events: RunEvent[] }>(api, `/api/runs/${runId}/events`);
      if (events.some((event) => event.type === "run_recovered")) break;
      if (Date.now() - killedAt > 60_000) throw new Error("the run was not taken over");
      await sleep(25);
    }
    const continuedMs = Date.now() - killedAt;
    const [run] = await waitForEnds(api, "takeover", new Set([runId]));
    return { continuedMs, status: run!.status, endedMs: Date.parse(run!.finishedAt!) - killedAt };
  } finally {
    await client.end();
  }
}

/** docs/benchmarks.md: one process on SQLite against one and three on PostgreSQL + Redis. */
export async function runScaleOutBench(context: BenchContext): Promise<BenchResult> {
  const shortRuns = context.quick ? 40 : 300;
  const inFlight = context.quick ? 100 : 1_000;
  const common = { WADDLE_MAX_CONCURRENT_RUNS: "16" };
  const throughput: (string | number)[][] = [];
  const memory: (string | number)[][] = [];
  const live: (string | number)[][] = [];
  const takeover: (string | number)[][] = [];

  const deployments: [string, () => Promise<BenchDeployment>][] = [
    ["sqlite", () => startSqlite(common)],
    ["pg-1", () => startQueueMode(["all"], common)],
    ["pg-3", () => startQueueMode(["all", "all", "all"], common)],
  ];
  for (const [name, start] of deployments) {
    context.log(`${name}: ${shortRuns} short runs`);
    const deployment = await start();
    try {
      await addAgents(deployment.instances[0]!);
      await sleep(500);
      const result = await measureThroughput(deployment, shortRuns);
      throughput.push([deployment.label, shortRuns, result.finished, round(result.runsPerSecond, 1)]);
    } finally {
      await deployment.stop();
    }
  }
  // Every run in flight executing at once: the concurrency limit covers them all.
  const everyRun = (processes: number) => ({
    WADDLE_MAX_CONCURRENT_RUNS: String(Math.ceil(inFlight / processes)),
  });
  const heavyDeployments: [string, () => Promise<BenchDeployment>][] = [
    ["sqlite", () => startSqlite(everyRun(1))],
    ["pg-3", () => startQueueMode(["all", "all", "all"], everyRun(3))],
  ];
  for (const [name, start] of heavyDeployments) {
    context.log(`${name}: ${inFlight} runs in flight`);
    const deployment = await start();
    const limit = everyRun(deployment.instances.length).WADDLE_MAX_CONCURRENT_RUNS;
    try {
      await addAgents(deployment.instances[0]!);
      const heavy = await measureInFlightMemory(deployment, inFlight);
      memory.push([
        deployment.label,
        limit,
        heavy.inFlight,
        `${heavy.running} running, ${heavy.queued} queued`,
        heavy.rss.map((mb) => round(mb, 0)).join(" / "),
      ]);
    } catch (error) {
      // Recorded, not fatal: the other figures still stand (with why this one is missing).
      const exits = deployment.instances.map(
        (instance) => instance.child.exitCode ?? instance.child.signalCode,
      );
      memory.push([
        deployment.label,
        limit,
        inFlight,
        `failed: ${String(error)}`,
        `exits: ${exits.join(" / ")}`,
      ]);
    } finally {
      await deployment.stop();
    }
  }

  context.log("live events at about 1,000 a second, viewer on another instance");
  const sqlite = await startSqlite(common);
  try {
    await addAgents(sqlite.instances[0]!);
    const result = await measureLiveLatency(sqlite.instances[0]!, sqlite.instances[0]!, 10);
    live.push(["1 process, SQLite (viewer on the same process)", ...getLiveRow(result)]);
  } finally {
    await sqlite.stop();
  }
  const cluster = await startQueueMode(["api", "worker", "worker"], {
    ...common,
    WADDLE_RUN_LEASE_MS: "3000",
  });
  try {
    const [api] = cluster.instances as [ServerProcess];
    await addAgents(api);
    const result = await measureLiveLatency(api, api, 10);
    live.push(["3 processes (API + 2 workers), viewer on the API instance", ...getLiveRow(result)]);
    context.log("takeover of a killed worker's run (lease 3 s)");
    const taken = await measureTakeover(cluster, clusterDatabaseUrl(cluster));
    takeover.push(["3000", taken.continuedMs, taken.status, taken.endedMs]);
  } finally {
    await cluster.stop();
  }
  const slowLease = await startQueueMode(["api", "worker", "worker"], common);
  try {
    await addAgents(slowLease.instances[0]!);
    context.log("takeover of a killed worker's run (default lease 10 s)");
    const taken = await measureTakeover(slowLease, clusterDatabaseUrl(slowLease));
    takeover.push(["10000 (default)", taken.continuedMs, taken.status, taken.endedMs]);
  } finally {
    await slowLease.stop();
  }

  const tables: BenchTable[] = [
    {
      title:
        "short runs (one instant mock tool, offline model) started at once, round-robin on every instance",
      columns: ["deployment", "runs", "finished", "runs/s"],
      rows: throughput,
    },
    {
      title:
        "live events to a socket.io viewer: ten runs of 50 × 100 ms steps at once (about 1,000 events/s)",
      columns: ["deployment", "events/s", "p50 ms", "p99 ms", "max ms", "duplicates", "missing"],
      rows: live,
    },
    {
      title: `RSS per instance with ${inFlight} runs in flight (3 × 4 s steps each), all executing at once`,
      columns: [
        "deployment",
        "WADDLE_MAX_CONCURRENT_RUNS",
        "runs started",
        "state 1.5 s later",
        "RSS MB per instance",
      ],
      rows: memory,
    },
    {
      title: "a worker killed (SIGKILL) mid-step: time until another continues the run from its checkpoint",
      columns: ["WADDLE_RUN_LEASE_MS", "continued after ms", "run ended", "ended after ms"],
      rows: takeover,
    },
  ];
  return {
    tables,
    lines: throughput.map((row) => `runs-per-second ${row[0]}: ${row[3]}`),
    targets: [
      {
        target: "a killed worker's run continues within 15 s (default lease)",
        measured: `${takeover.at(-1)?.[1]} ms`,
        met: Number(takeover.at(-1)?.[1]) <= 15_000,
      },
    ],
    notes: [
      "Throughput and live events use WADDLE_MAX_CONCURRENT_RUNS=16 per process.",
      "Every deployment runs on this one machine: the Waddle processes, PostgreSQL (fsync off, a throwaway " +
        "cluster) and redis-server (no persistence) share its cores, so three processes measure coordination " +
        "cost, not added capacity: with 2 cores, three Waddle processes plus PostgreSQL and Redis contend for " +
        "the same CPUs, and short runs are bound by the database round trips of each event batch.",
      "A short run writes about 15 events, its status changes and a checkpoint per step; in queue mode each " +
        "is a PostgreSQL transaction and each status or event crosses Redis to the other instances.",
      "Live latency is the arrival time at the viewer minus the event's ts, stamped by the planner on the " +
        "worker (same clock: same machine); it covers storing the batch, the Redis hop, the sequencer and " +
        "the socket. 'missing' counts stored events the viewer never got, 'duplicates' seqs it got twice.",
      "Takeover time is from SIGKILL to the stored run_recovered event: the lease has to run out (it was " +
        "last renewed up to a third of it before the kill), then a sweeper (every quarter lease, at most 2 s) " +
        "queues the run and another worker claims it.",
      "What 2 cores limit: PostgreSQL, Redis and every Waddle process share the same 2 cores (and, in this " +
        "workplace, other jobs: see the load average above, which moves these figures by tens of percent " +
        "between runs). Three processes add no CPU here: what they gain over one comes from overlapping " +
        "waits on the database, and every event and status they send to each other costs it back. The " +
        "takeover time and the live latency hold under that load; the runs/s do not scale on this machine.",
      "For a larger deployment, from these figures: one core of Waddle work per 70–150 short runs/s (the " +
        "one-process rows, which share their 2 cores with the database); PostgreSQL sized for about one " +
        "transaction per event batch (a few per step) plus a claim renewal per running run every third of " +
        "the lease; Redis carrying each event once per instance (fine at thousands a second); and about " +
        "0.1 MB of RSS per executing run over a base of 150–170 MB per instance (the in-flight table).",
    ],
  };
}

function getLiveRow(result: Awaited<ReturnType<typeof measureLiveLatency>>): (string | number)[] {
  return [
    round(result.rate, 0),
    round(result.summary.median, 1),
    round(result.summary.p99, 1),
    round(result.summary.max, 1),
    result.duplicates,
    result.missing,
  ];
}

function clusterDatabaseUrl(deployment: BenchDeployment): string {
  if (!deployment.postgres) throw new Error("not a PostgreSQL deployment");
  return deployment.databaseUrl!;
}
