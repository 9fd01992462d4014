import { mkdtempSync, rmSync } from "node:fs";
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildCatalog, defineTool, ReactPlanner, type LlmClient, type LlmResult } from "@waddle/planner";
import { AgentSpec, TERMINAL_RUN_STATUSES } from "@waddle/protocol";
import { createWaddleServer, type PlannerFactory, type WaddleServer } from "@waddle/server";
import { z } from "zod";
import type { BenchContext, BenchResult, BenchTable, TargetCheck } from "../bench-report.js";
import { round } from "../format-report.js";
import { collectGarbage, measureInterleaved } from "../measure-interleaved.js";
import { getSummary } from "../stats.js";

const STEPS = 50;
const TARGET_RATIO = 1.1;
/** A run that has not ended by then fails the benchmark instead of holding it. */
const RUN_TIMEOUT_MS = 30_000;

/** A model that answers at once: `steps` tool calls, then the answer (so a run is all Waddle's own work). */
function createStepLlm(steps: number): LlmClient {
  let calls = 0;
  return {
    provider: "bench",
    model: "bench-model",
    complete: (): Promise<LlmResult> => {
      const n = calls;
      calls += 1;
      const content =
        n < steps
          ? JSON.stringify({ next_node: "step", args: { n } })
          : JSON.stringify({ next_node: "final_response", args: { answer: "done" } });
      return Promise.resolve({
        content,
        usage: { promptTokens: 100, completionTokens: 10 },
        finishReason: "stop",
      });
    },
  };
}

const stepTool = defineTool({
  name: "step",
  desc: "One step",
  sideEffects: "pure",
  args: z.object({ n: z.number() }),
  out: z.object({ n: z.number() }),
  run: ({ n }) => ({ n }),
});

const createPlanner: PlannerFactory = ({ spec }) =>
  Promise.resolve({
    planner: new ReactPlanner({
      llm: createStepLlm(STEPS),
      catalog: buildCatalog({ tools: [stepTool] }),
      options: { maxIters: STEPS + 10 },
      agentId: spec.id,
    }),
    offline: false,
  });

// The receiver's own process, as a collector is: reading 100 MB of exports on the measured thread would
// charge the collector's work to the traced servers.
const SINK_SOURCE = `
const { createServer } = require("node:http");
let bytes = 0;
const server = createServer((request, response) => {
  if (request.url === "/bytes") return response.end(String(bytes));
  request.on("data", (chunk) => (bytes += chunk.length));
  request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end("{}"));
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

/** An OTLP/HTTP receiver in a child process that reads and drops what it gets (a collector that keeps up). */
async function startSink(): Promise<{ url: string; receivedBytes: () => Promise<number>; stop: () => void }> {
  const child = spawn(process.execPath, ["-e", SINK_SOURCE], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("exit", (code) => reject(new Error(`the receiver exited (${code})`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    receivedBytes: async () => Number(await (await fetch(`${url}/bytes`)).text()),
    stop: () => child.kill(),
  };
}

async function startServer(env: NodeJS.ProcessEnv): Promise<{ server: WaddleServer; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), "waddle-bench-otel-"));
  const server = await createWaddleServer({
    port: 0,
    dataDir: dir,
    designerDir: null,
    exampleAgentsDir: null,
    logLevel: "silent",
    env,
    createPlanner,
  });
  await server.store.createAgent({ spec: AgentSpec.parse({ version: 1, id: "steps", name: "Steps" }) });
  return { server, dir };
}

/** One run of STEPS steps through the whole server (queue, planner, recorder, SQLite, observers). */
async function runOnce(server: WaddleServer): Promise<void> {
  // A run of instant steps is one chain of microtasks: without a turn of the event loop between runs, the
  // exporter's requests would wait until the measurement ends (and its queue overflow), as no server
  // taking requests would let them.
  await new Promise((resolve) => setImmediate(resolve));
  // Listening before the start: a run this short may end before `startRun` answers.
  const ended = new Map<string, string>();
  let wake: () => void = () => undefined;
  const stop = server.hub.onStatus((message) => {
    if (!TERMINAL_RUN_STATUSES.has(message.status)) return;
    ended.set(message.runId, message.status);
    wake();
  });
  try {
    const { runId } = await server.runs.startRun({ agentId: "steps", query: "Go" });
    const deadline = Date.now() + RUN_TIMEOUT_MS;
    while (!ended.has(runId)) {
      if (Date.now() > deadline) {
        const run = await server.store.getRun(runId);
        const events = await server.store.listEvents(runId);
        throw new Error(
          `run ${runId} on ${server.url} did not end in ${RUN_TIMEOUT_MS} ms (${run?.status}, ${events.length} events, last ${events.at(-1)?.type})`,
        );
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 1_000).unref();
      });
    }
    if (ended.get(runId) !== "finished") throw new Error(`run ${runId} ${ended.get(runId)}`);
  } finally {
    stop();
  }
}

/** `+4.2 %` or `-1.3 %`: a ratio to the untraced server as a change. */
function formatChange(ratio: number): string {
  const percent = round((ratio - 1) * 100, 1);
  return `${percent >= 0 ? "+" : ""}${percent} %`;
}

/** A traced server: to the receiver, in one protocol. */
function tracedEnv(url: string, protocol: string): NodeJS.ProcessEnv {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: url,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_BSP_SCHEDULE_DELAY: "200",
  };
}

/** The dropped-spans counter of a server's `/metrics` (the text format's sample line). */
async function readDroppedSpans(server: WaddleServer): Promise<string> {
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  return /^waddle_otel_dropped_spans_total (\S+)$/m.exec(metrics)?.[1] ?? "?";
}

/**
 * `npm run bench -- otel`: the cost of a step with tracing on (to a local receiver, in both OTLP/HTTP
 * protocols) against off, side by side in one process (goal: within 10 %).
 */
export async function runOtelBench(context: BenchContext): Promise<BenchResult> {
  const sink = await startSink();
  const servers = [
    { name: "tracing off", env: {} },
    { name: "tracing on, http/protobuf (the OTLP default)", env: tracedEnv(sink.url, "http/protobuf") },
    { name: "tracing on, http/json", env: tracedEnv(sink.url, "http/json") },
  ];
  const started = await Promise.all(
    servers.map(async (entry) => ({ ...entry, ...(await startServer(entry.env)) })),
  );
  context.log(started.map((entry) => `${entry.name}: ${entry.server.url}`).join("; "));
  try {
    const measured = await measureInterleaved({
      contenders: started.map((entry) => ({
        name: entry.name,
        units: STEPS,
        run: () => runOnce(entry.server),
      })),
      rounds: context.quick ? 5 : 20,
      warmupMs: context.quick ? 300 : 1_000,
      sampleMs: context.quick ? 100 : 300,
      beforeSample: collectGarbage,
    });
    const dropped = await Promise.all(started.slice(1).map((entry) => readDroppedSpans(entry.server)));
    // Closing flushes what is queued: the receiver has every exported span after it.
    for (const entry of started) await entry.server.close();
    const receivedBytes = await sink.receivedBytes();
    const figures = measured.map((entry) => ({ ...entry, summary: getSummary(entry.perUnitUs) }));
    const base = figures[0]!.summary.median;
    const ratios = figures.map((entry) => entry.summary.median / base);
    context.log(
      `tracing on/off per step: ${ratios
        .slice(1)
        .map((ratio) => round(ratio, 3))
        .join(", ")}`,
    );
    const table: BenchTable = {
      title: `A ${STEPS}-step run through the server, per step (µs)`,
      columns: ["", "rounds", "median", "p90", "min", "against off"],
      rows: figures.map((entry, index) => [
        entry.name,
        entry.summary.n,
        round(entry.summary.median, 1),
        round(entry.summary.p90, 1),
        round(entry.summary.min, 1),
        index === 0 ? "" : formatChange(ratios[index]!),
      ]),
    };
    const targets: TargetCheck[] = figures.slice(1).map((entry, index) => ({
      target: `a step with ${entry.name.replace("tracing on, ", "tracing on in ")} costs within 10 % of one with tracing off (median)`,
      measured: formatChange(ratios[index + 1]!),
      met: ratios[index + 1]! <= TARGET_RATIO,
    }));
    return {
      tables: [table],
      lines: [
        `otel-step-ratio-protobuf: ${round(ratios[1]!, 3)}`,
        `otel-step-ratio-json: ${round(ratios[2]!, 3)}`,
        `otel-received-bytes: ${receivedBytes}`,
        `otel-dropped-spans: ${dropped.join(", ")}`,
      ],
      targets,
      notes: [
        `Three servers in one process, two with OTEL_EXPORTER_OTLP_ENDPOINT set to a local receiver (its own process) that reads and drops what it gets, each running ${STEPS}-step runs of a model that answers at once and a pure tool, so that a step is all Waddle's own work: queue, planner, recorder, SQLite and the observers (metrics on all, the tracer on two). Rounds alternate them in a rotating order, so that background load falls on all alike.`,
        `A run that has not ended after ${RUN_TIMEOUT_MS / 1000} s fails the benchmark instead of holding it.`,
        "A step makes two spans (a chat and an execute_tool) besides its share of the run's invoke_agent. The main thread builds them with the OpenTelemetry SDK and copies each batch to the exporter's worker thread; the worker encodes and sends. On two cores, that worker and the receiver's process take CPU the runs would otherwise have, which a machine with cores to spare does not charge to the steps.",
      ],
    };
  } finally {
    for (const entry of started) {
      await entry.server.close();
      rmSync(entry.dir, { recursive: true, force: true });
    }
    sink.stop();
  }
}
