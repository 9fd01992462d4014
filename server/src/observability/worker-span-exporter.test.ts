import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import type * as Api from "@opentelemetry/api";
import type { ExportResult } from "@opentelemetry/core";
import type * as OtlpHttp from "@opentelemetry/exporter-trace-otlp-http";
import type * as OtlpProto from "@opentelemetry/exporter-trace-otlp-proto";
import type * as Resources from "@opentelemetry/resources";
import type * as SdkTraceBase from "@opentelemetry/sdk-trace-base";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkerSpanExporter } from "./worker-span-exporter.js";

const load = createRequire(import.meta.url);
const api = load("@opentelemetry/api") as typeof Api;
const sdk = load("@opentelemetry/sdk-trace-base") as typeof SdkTraceBase;
const resources = load("@opentelemetry/resources") as typeof Resources;

const RESOURCE = { "service.name": "waddle-test", "deployment.environment": "test" };

/** A receiver that keeps each body as it came, to compare two exporters byte for byte. */
async function startCapture(): Promise<{ url: string; bodies: Buffer[]; server: Server }> {
  const bodies: Buffer[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      bodies.push(Buffer.concat(chunks));
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, bodies, server };
}

/** Real SDK spans with all an encoder reads: a remote parent, a trace state, links, events, an error. */
function makeSpans(): ReadableSpan[] {
  const memory = new sdk.InMemorySpanExporter();
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes(RESOURCE),
    spanProcessors: [new sdk.SimpleSpanProcessor(memory)],
  });
  const tracer = provider.getTracer("waddle", "1.2.3");
  const remote = api.trace.setSpanContext(api.ROOT_CONTEXT, {
    traceId: "0af7651916cd43dd8448eb211c80319c",
    spanId: "b7ad6b7169203331",
    traceFlags: 1,
    isRemote: true,
    traceState: api.createTraceState("vendor=abc,other=1"),
  });
  const root = tracer.startSpan(
    "invoke_agent Support",
    {
      kind: api.SpanKind.INTERNAL,
      attributes: { "gen_ai.agent.id": "support", "waddle.steps": 3, "waddle.flags": ["a", "b"], ok: true },
      links: [
        {
          context: { traceId: "1".repeat(32), spanId: "2".repeat(16), traceFlags: 1 },
          attributes: { why: "fork" },
        },
      ],
      startTime: [1_700_000_000, 5],
    },
    remote,
  );
  const child = tracer.startSpan(
    "execute_tool lookup",
    { attributes: { "gen_ai.tool.name": "lookup", ratio: 0.5 }, startTime: [1_700_000_001, 0] },
    api.trace.setSpan(api.ROOT_CONTEXT, root),
  );
  child.addEvent("tool_retry", { attempt: 2 }, [1_700_000_001, 500]);
  child.setStatus({ code: api.SpanStatusCode.ERROR, message: "timed out" });
  child.end([1_700_000_002, 0]);
  root.addEvent("pause", { "waddle.pause.reason": "approval_required" }, [1_700_000_002, 10]);
  root.end([1_700_000_003, 0]);
  return memory.getFinishedSpans();
}

function exportWith(exporter: SpanExporter, spans: ReadableSpan[]): Promise<ExportResult> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

describe("WorkerSpanExporter", () => {
  let capture: Awaited<ReturnType<typeof startCapture>>;
  beforeAll(async () => (capture = await startCapture()));
  afterAll(() => new Promise<void>((resolve) => capture.server.close(() => resolve())));

  for (const protocol of ["http/json", "http/protobuf"] as const) {
    it(`sends in ${protocol} exactly what the official exporter sends from this thread`, async () => {
      const spans = makeSpans();
      const options = { url: capture.url, headers: { "x-test": "1" }, timeoutMillis: 5_000 };
      const Direct =
        protocol === "http/json"
          ? (load("@opentelemetry/exporter-trace-otlp-http") as typeof OtlpHttp).OTLPTraceExporter
          : (load("@opentelemetry/exporter-trace-otlp-proto") as typeof OtlpProto).OTLPTraceExporter;
      const direct = new Direct(options);
      capture.bodies.length = 0;
      expect(await exportWith(direct, spans)).toEqual({ code: 0 });
      await direct.shutdown();
      const failures: Error[] = [];
      const worker = new WorkerSpanExporter({
        protocol,
        exporter: options,
        resourceAttributes: RESOURCE,
        onFailure: (error) => failures.push(error),
      });
      expect(await exportWith(worker, spans)).toEqual({ code: 0 });
      await worker.shutdown();
      expect(capture.bodies).toHaveLength(2);
      expect(capture.bodies[1]!.equals(capture.bodies[0]!)).toBe(true);
      if (protocol === "http/json") {
        const sent = JSON.stringify(JSON.parse(capture.bodies[1]!.toString("utf8")));
        for (const part of ["vendor=abc,other=1", "tool_retry", "timed out", "waddle-test", "1.2.3", "fork"])
          expect(sent).toContain(part);
      }
      expect(failures).toEqual([]);
    });
  }

  it("answers a failed export when the collector refuses, and fails at once after shutdown", async () => {
    const refusing = createServer((_request, response) => response.writeHead(400).end("no"));
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/v1/traces`;
    const worker = new WorkerSpanExporter({
      protocol: "http/json",
      exporter: { url, headers: {}, timeoutMillis: 2_000 },
      resourceAttributes: RESOURCE,
      onFailure: () => undefined,
    });
    const refused = await exportWith(worker, makeSpans());
    expect(refused.code).toBe(1);
    expect(refused.error?.message).toBeTruthy();
    await worker.shutdown();
    const after = await exportWith(worker, makeSpans());
    expect(after.code).toBe(1);
    await new Promise<void>((resolve) => refusing.close(() => resolve()));
  });
});

describe("WorkerSpanExporter shutdown", () => {
  it("stops a worker whose collector never answers once its shutdown time is up", async () => {
    // Accepts the request and never answers it.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1/traces`;
    const worker = new WorkerSpanExporter({
      protocol: "http/json",
      exporter: { url, headers: {}, timeoutMillis: 60_000 },
      resourceAttributes: RESOURCE,
      onFailure: () => undefined,
      shutdownTimeoutMs: 300,
    });
    const pending = exportWith(worker, makeSpans());
    // The export waits on the silent collector; ending the exporter must not wait for it.
    const stopped = worker.shutdown();
    const outcome = await Promise.race([
      stopped.then(() => "stopped"),
      new Promise((resolve) => setTimeout(() => resolve("still waiting"), 10_000).unref()),
    ]);
    expect(outcome).toBe("stopped");
    expect((await pending).code).toBe(1);
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }, 20_000);
});
