import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ReactPlanner } from "@waddle/planner";
import { CreateAgentResponse, StartRunResponse } from "@waddle/protocol";
import { createWaddleServer, type PlannerFactory, type WaddleServer } from "@waddle/server";
import type { BenchContext, BenchResult, BenchTable, TargetCheck } from "../bench-report.js";
import { round } from "../format-report.js";
import { getSummary } from "../stats.js";
import type { ClientRecord } from "./client-messages.js";
import type { z } from "zod";
import { ClientsProcess } from "./clients-process.js";
import { PacedStreamClient, type PacedStream } from "./paced-stream-client.js";
import { preciseNow } from "./precise-now.js";

const CLIENTS = 5;
const AGENT_ID = "live-events-bench";

interface Phase {
  label: string;
  rate: number;
  seconds: number;
  measured: boolean;
}

/** The server's planner factory: each run streams at the rate the benchmark set for it. */
function createPacedFactory(): { factory: PlannerFactory; next: (stream: PacedStream) => void } {
  const queue: PacedStream[] = [];
  const factory: PlannerFactory = async ({ spec, agentVersion }) => {
    const stream = queue.shift();
    if (stream === undefined) throw new Error("The benchmark started a run it did not configure.");
    const planner = ReactPlanner.fromSpec(spec, {
      llm: new PacedStreamClient(stream),
      clock: preciseNow,
      agentId: spec.id,
      ...(agentVersion === undefined ? {} : { agentVersion }),
    });
    return { planner, offline: false };
  };
  return { factory, next: (stream) => queue.push(stream) };
}

async function post<T extends z.ZodType>(input: {
  server: WaddleServer;
  pathname: string;
  body: unknown;
  schema: T;
}): Promise<z.output<T>> {
  const { server, pathname, body } = input;
  const response = await fetch(`${server.url}${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer: unknown = await response.json();
  if (!response.ok)
    throw new Error(`POST ${pathname} answered ${response.status}: ${JSON.stringify(answer)}`);
  return input.schema.parse(answer);
}

interface PhaseResult {
  phase: Phase;
  records: ClientRecord[];
  lastSeq: number;
  status: string;
  chunks: number;
  /** CPU time of this (the server's) process over the phase, as a share of one core. */
  serverCpu: number;
}

async function runPhase(input: {
  server: WaddleServer;
  clients: ClientsProcess;
  next: (stream: PacedStream) => void;
  phase: Phase;
}): Promise<PhaseResult> {
  const { server, clients, phase } = input;
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const chunks = Math.round(phase.rate * phase.seconds);
  input.next({ rate: phase.rate, count: chunks, gate });
  const { runId } = await post({
    server,
    pathname: "/api/runs",
    body: { agentId: AGENT_ID, query: phase.label },
    schema: StartRunResponse,
  });
  await clients.watch(runId);
  const report = clients.report(phase.seconds * 1000 + 60_000);
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  open();
  const records = await report;
  const cpu = process.cpuUsage(cpuStart);
  const serverCpu = (cpu.user + cpu.system) / 1000 / (performance.now() - wallStart);
  const run = await server.store.getRun(runId);
  return { phase, records, lastSeq: run?.lastSeq ?? -1, status: run?.status ?? "missing", chunks, serverCpu };
}

/** Issue 8 item 4: latency and loss of live events from a real server to socket.io clients. */
export async function runLiveEventsBench(context: BenchContext): Promise<BenchResult> {
  const seconds = context.quick ? 1 : 5;
  const phases: Phase[] = [
    { label: "warm-up", rate: 1_000, seconds: 1, measured: false },
    { label: "1,000 events/s", rate: 1_000, seconds, measured: true },
    { label: "5,000 events/s", rate: 5_000, seconds, measured: true },
  ];
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-bench-live-"));
  const { factory, next } = createPacedFactory();
  const server = await createWaddleServer({
    port: 0,
    dataDir,
    logLevel: "silent",
    designerDir: null,
    exampleToolsDir: null,
    exampleAgentsDir: null,
    env: {},
    createPlanner: factory,
  });
  let clients: ClientsProcess | undefined;
  try {
    await post({
      server,
      pathname: "/api/agents",
      schema: CreateAgentResponse,
      body: {
        version: 1,
        id: AGENT_ID,
        name: "Live events benchmark",
        description: "Streams a long answer at a fixed rate.",
        llm: { provider: "offline", model: "offline" },
        tools: [],
      },
    });
    clients = await ClientsProcess.start(server.url, CLIENTS);
    const clock = await clients.measureClockOffset();
    context.log(`clients' clock offset ${round(clock.offsetMs, 3)} ms (± ${round(clock.errorMs, 3)} ms)`);
    const results: PhaseResult[] = [];
    for (const phase of phases) {
      context.log(`${phase.label}: ${phase.rate} events/s for ${phase.seconds} s to ${CLIENTS} clients`);
      const result = await runPhase({ server, clients, next, phase });
      if (phase.measured) results.push(result);
    }
    return summarize(results, clock);
  } finally {
    clients?.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function summarize(results: PhaseResult[], clock: { offsetMs: number; errorMs: number }): BenchResult {
  const table: BenchTable = {
    title: `${CLIENTS} socket.io clients (own process) subscribed to one run streaming answer chunks`,
    columns: [
      "rate",
      "chunks",
      "events/s emitted",
      "events/s received (per client)",
      "p50 ms",
      "p90 ms",
      "p99 ms",
      "max ms",
      "server CPU",
      "seq check",
      "run",
    ],
    rows: [],
  };
  const targets: TargetCheck[] = [];
  for (const { phase, records, lastSeq, status, chunks, serverCpu } of results) {
    const delays = records.flatMap((record) => record.delays.map((delay) => delay - clock.offsetMs));
    const latency = getSummary(delays);
    const complete = records.every(
      (record) =>
        record.duplicates === 0 &&
        record.missing === 0 &&
        record.maxSeq === lastSeq &&
        record.delays.length === chunks,
    );
    const lost = records.reduce((total, record) => total + record.missing + (lastSeq - record.maxSeq), 0);
    const duplicated = records.reduce((total, record) => total + record.duplicates, 0);
    const received = getSummary(
      records.map(
        (record) => (record.delays.length - 1) / ((record.lastChunkAt - record.firstChunkAt) / 1000),
      ),
    );
    const first = records[0]!;
    const emittedSpan = first.lastChunkTs - first.firstChunkTs;
    table.rows.push([
      phase.label,
      chunks,
      round((chunks - 1) / (emittedSpan / 1000), 0),
      round(received.median, 0),
      round(latency.median, 2),
      round(latency.p90, 2),
      round(latency.p99, 2),
      round(latency.max, 2),
      `${round(serverCpu * 100, 0)} %`,
      complete ? `every seq 1–${lastSeq} once, all clients` : `lost ${lost}, duplicated ${duplicated}`,
      status,
    ]);
    targets.push({
      target: `zero loss at ${phase.label} (every client saw every seq exactly once)`,
      measured: complete ? "0 lost, 0 duplicated" : `${lost} lost, ${duplicated} duplicated`,
      met: complete,
    });
    if (phase.rate === 1_000) {
      targets.push({
        target: "p99 ≤ 10 ms at 1,000 events/s",
        measured: `${round(latency.p99, 2)} ms`,
        met: latency.p99 <= 10,
      });
    }
  }
  return {
    tables: [table],
    lines: [],
    targets,
    notes: [
      "A real server (createWaddleServer, temporary SQLite data dir) in this process; the run's planner is a " +
        "ReactPlanner whose model streams its answer one word per delta at the given rate, so each delta is " +
        "one llm_stream_chunk event on the real path: planner → RunRecorder → SQLite → hub → socket.io room.",
      `Latency = client receipt − event ts (the planner stamps ts when it emits), corrected by the clients' ` +
        `clock offset measured over IPC (${round(clock.offsetMs, 3)} ms, ± ${round(clock.errorMs, 3)} ms). The ` +
        "clients subscribe from seq 0 before streaming starts; a 1 s warm-up run is not counted.",
    ],
  };
}
