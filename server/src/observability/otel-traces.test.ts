import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";
import { OtlpTestReceiver, type ReceivedSpan } from "./otlp-test-receiver.js";

const CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";
const TRACEPARENT = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`;

let receiver: OtlpTestReceiver;
let server: TestServer;

beforeAll(async () => {
  receiver = new OtlpTestReceiver();
  const endpoint = await receiver.start();
  server = await startTestServer({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "waddle-test",
      OTEL_BSP_SCHEDULE_DELAY: "20",
    },
  });
});
afterAll(async () => {
  await server.stop();
  await receiver.close();
});

async function startRun(
  agentId: string,
  query: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const started = await server.request("/api/runs", { method: "POST", json: { agentId, query }, headers });
  expect(started.status).toBe(202);
  return started.body.runId as string;
}

/** The run's `invoke_agent` spans, once one with this status arrived. */
async function segmentOf(runId: string, status: string): Promise<ReceivedSpan> {
  return receiver.waitFor(
    (span) => span.attributes["waddle.run.id"] === runId && span.attributes["waddle.run.status"] === status,
  );
}

function childrenOf(parent: ReceivedSpan): ReceivedSpan[] {
  return receiver.trace(parent.traceId).filter((span) => span.parentSpanId === parent.spanId);
}

describe("OpenTelemetry traces from runs", () => {
  it("makes a run with parallel branches a child of the caller's traceparent, with GenAI spans", async () => {
    const runId = await startRun("sharded-research", "What changed in battery recycling in 2026?", {
      traceparent: TRACEPARENT,
    });
    expect((await waitForRun(server, runId)).status).toBe("finished");
    const root = await segmentOf(runId, "finished");
    expect(root.name).toBe("invoke_agent sharded-research");
    expect(root.traceId).toBe(CALLER_TRACE);
    expect(root.parentSpanId).toBe(CALLER_SPAN);
    expect(root.serviceName).toBe("waddle-test");
    expect(root.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.id": "sharded-research",
      "waddle.run.id": runId,
      "gen_ai.request.model": expect.any(String),
    });
    expect(typeof root.attributes["gen_ai.agent.name"]).toBe("string");
    // The run keeps its span's context, so that any worker continues the same trace.
    const record = await server.store.getRun(runId);
    expect(record?.trace).toEqual({
      traceparent: `00-${CALLER_TRACE}-${root.spanId}-01`,
      parent: TRACEPARENT,
    });

    const children = childrenOf(root);
    const chats = children.filter((span) => span.name.startsWith("chat "));
    expect(chats.length).toBeGreaterThan(0);
    expect(chats[0]!.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": expect.any(String),
      "gen_ai.request.model": expect.any(String),
      "gen_ai.response.model": expect.any(String),
      "gen_ai.usage.input_tokens": expect.any(Number),
      "gen_ai.usage.output_tokens": expect.any(Number),
      "waddle.llm.purpose": expect.any(String),
    });
    // The offline model's replies are whole: each chat says so, as an endpoint's would.
    for (const chat of chats) expect(chat.attributes["gen_ai.response.finish_reasons"]).toEqual(["stop"]);
    const plan = children.find((span) => span.name === "parallel");
    expect(plan).toBeDefined();
    // The branches, and the join (marked) after them.
    const branches = childrenOf(plan!).filter((span) => span.attributes["waddle.parallel.join"] !== true);
    expect(branches.length).toBeGreaterThanOrEqual(2);
    expect(branches.length).toBe(plan!.attributes["waddle.parallel.branches"]);
    for (const branch of branches) {
      expect(branch.name).toMatch(/^execute_tool /);
      expect(branch.attributes).toMatchObject({
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": branch.name.slice("execute_tool ".length),
        "gen_ai.tool.call.id": expect.any(String),
        "gen_ai.tool.type": expect.stringMatching(/^(function|extension)$/),
        "waddle.tool.side_effects": expect.any(String),
      });
      // Content stays out unless OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true.
      expect(branch.attributes["gen_ai.tool.call.arguments"]).toBeUndefined();
    }
    expect(root.attributes["gen_ai.input.messages"]).toBeUndefined();
  });

  it("marks auto-seq steps", async () => {
    const runId = await startRun("document-pipeline", "Summarize the contracts in the Q3 document folder");
    await waitForRun(server, runId);
    const root = await segmentOf(runId, "finished");
    expect(root.parentSpanId).toBeUndefined();
    expect(root.events.map((event) => event.name)).toContain("auto_seq_executed");
    const autoSeq = childrenOf(root).filter((span) => span.attributes["waddle.auto_seq"] === true);
    expect(autoSeq.length).toBeGreaterThan(0);
    expect(autoSeq[0]!.name).toMatch(/^execute_tool /);
  });

  it("ends a paused run's span at the pause, and continues the run in the same trace after the answer", async () => {
    const runId = await startRun("email-approval", "Email Dana that the Q3 report is ready for review");
    const paused = await waitForRun(server, runId, new Set(["paused", "finished", "failed"]));
    expect(paused.status).toBe("paused");
    const first = await segmentOf(runId, "paused");
    const pause = first.events.find((event) => event.name === "pause");
    expect(pause?.attributes["waddle.pause.reason"]).toEqual(paused.pause?.reason);
    const resumed = await server.request(`/api/runs/${runId}/resume`, {
      method: "POST",
      json: { resumeToken: paused.pause!.resumeToken, decision: "approve" },
    });
    expect(resumed.status).toBe(202);
    await waitForRun(server, runId);
    const second = await segmentOf(runId, "finished");
    expect(second.traceId).toBe(first.traceId);
    expect(second.parentSpanId).toBe(first.spanId);
    expect(second.attributes["waddle.run.continued"]).toBe(true);
    expect(second.events.find((event) => event.name === "resumed")?.attributes).toMatchObject({
      "waddle.resume.decision": "approve",
    });
  });

  it("makes a /v1 call carrying a traceparent a child of its caller", async () => {
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const spanId = "b7ad6b7169203331";
    const answer = await server.request("/v1/chat/completions", {
      method: "POST",
      headers: { traceparent: `00-${traceId}-${spanId}-01` },
      json: {
        model: "support-triage",
        messages: [{ role: "user", content: "My invoice shows a duplicate charge" }],
      },
    });
    expect(answer.status).toBe(200);
    const runId = answer.headers.get("x-waddle-run-id")!;
    const root = await segmentOf(runId, "finished");
    expect(root.traceId).toBe(traceId);
    expect(root.parentSpanId).toBe(spanId);
    expect(childrenOf(root).some((span) => span.name.startsWith("execute_tool "))).toBe(true);
  });

  it("ignores a malformed traceparent: the run starts a trace of its own", async () => {
    const runId = await startRun("support-triage", "My invoice shows a duplicate charge", {
      traceparent: "00-zzzz-not-a-trace-01",
    });
    await waitForRun(server, runId);
    const root = await segmentOf(runId, "finished");
    expect(root.parentSpanId).toBeUndefined();
  });
});

describe("OpenTelemetry settings that cannot work", () => {
  it("reports a malformed endpoint at start, leaves tracing off and the server up", async () => {
    const errors: string[] = [];
    const logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: (message: string) => void errors.push(message),
    };
    const broken = await startTestServer({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: "localhost 4318" }, logger });
    try {
      expect(errors.some((message) => message.includes("OTEL_EXPORTER_OTLP_ENDPOINT"))).toBe(true);
      const started = await broken.request("/api/runs", {
        method: "POST",
        json: { agentId: "support-triage", query: "My invoice shows a duplicate charge" },
      });
      const run = await waitForRun(broken, started.body.runId as string);
      expect(run.status).toBe("finished");
      expect(run.trace).toBeUndefined();
    } finally {
      await broken.stop();
    }
  });
});

describe("a collector that cannot be reached", () => {
  it("never stops a run, and the spans it loses are counted in /metrics", async () => {
    // A port that nothing listens on any more.
    const gone = new OtlpTestReceiver();
    const endpoint = await gone.start();
    await gone.close();
    const lonely = await startTestServer({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_TIMEOUT: "200",
        OTEL_BSP_SCHEDULE_DELAY: "20",
      },
    });
    try {
      const started = await lonely.request("/api/runs", {
        method: "POST",
        json: { agentId: "support-triage", query: "My invoice shows a duplicate charge" },
      });
      expect((await waitForRun(lonely, started.body.runId as string)).status).toBe("finished");
      for (;;) {
        const families = parsePrometheusTextFormat((await lonely.request("/metrics")).text);
        const dropped = families.find((family) => family.name === "waddle_otel_dropped_spans_total");
        expect(dropped?.type).toBe("COUNTER");
        if (Number(dropped?.metrics[0]?.value ?? 0) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await lonely.stop();
    }
  });
});
