import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ReactPlanner } from "@waddle/planner";
import { CreateAgentResponse, StartRunResponse } from "@waddle/protocol";
import { createWaddleServer, type PlannerFactory, type WaddleServer } from "@waddle/server";
import type { BenchContext, BenchResult } from "../bench-report.js";
import { round } from "../format-report.js";
import type { z } from "zod";
import { ClientsProcess } from "./clients-process.js";
import { PacedStreamClient, type PacedStream } from "./paced-stream-client.js";
import { summarizeLiveEvents, type Phase, type PhaseResult } from "./summarize-live-events.js";
import { preciseNow } from "./precise-now.js";

const CLIENTS = 5;
const AGENT_ID = "live-events-bench";

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

/** docs/benchmarks.md §4: latency and loss of live events from a real server to socket.io clients. */
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
    return summarizeLiveEvents({ results, clock, clients: CLIENTS });
  } finally {
    clients?.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
