import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { ExportResult } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";

/** A span as plain data: what the OTLP encoders read of a `ReadableSpan`, and nothing that cannot be cloned. */
interface WireSpan {
  name: string;
  kind: number;
  context: { traceId: string; spanId: string; traceFlags: number; traceState?: string };
  parent?: { traceId: string; spanId: string; traceFlags: number; isRemote?: boolean };
  startTime: readonly [number, number];
  endTime: readonly [number, number];
  duration: readonly [number, number];
  status: ReadableSpan["status"];
  attributes: ReadableSpan["attributes"];
  events: ReadableSpan["events"];
  links: {
    context: WireSpan["context"];
    attributes?: ReadableSpan["attributes"];
    droppedAttributesCount?: number;
  }[];
  dropped: readonly [attributes: number, events: number, links: number];
  scope: { name: string; version?: string; schemaUrl?: string };
}

export interface WorkerSpanExporterOptions {
  protocol: "http/json" | "http/protobuf";
  /** The OTLP exporter's own options (`url`, `headers`, `timeoutMillis`). */
  exporter: { url: string; headers: Record<string, string>; timeoutMillis: number };
  resourceAttributes: Record<string, string>;
  /** The worker failed or exited on its own: every later export fails (and is counted as dropped). */
  onFailure: (error: Error) => void;
  /** How long `shutdown()` lets the worker send what it holds before stopping it (default: one export timeout and a second). */
  shutdownTimeoutMs?: number;
}

// Plain CommonJS evaluated as the worker's script (as the WAL checkpointer's): it runs the same from the
// TypeScript sources, the build and vitest. The official OTLP exporter does the encoding and the sending.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { OTLPTraceExporter } = require(workerData.exporterPath);
const { resourceFromAttributes } = require(workerData.resourcesPath);
const exporter = new OTLPTraceExporter(workerData.exporterOptions);
// The encoders group spans by resource and scope object: one of each, reused.
const resource = resourceFromAttributes(workerData.resourceAttributes);
const scopes = new Map();
const getScope = (scope) => {
  const key = scope.name + "@" + (scope.version ?? "") + " " + (scope.schemaUrl ?? "");
  let found = scopes.get(key);
  if (!found) scopes.set(key, (found = scope));
  return found;
};
const traceState = (value) => (value === undefined ? undefined : { serialize: () => value });
const withState = (context) => ({ ...context, traceState: traceState(context.traceState) });
const toSpan = (wire) => {
  const context = withState(wire.context);
  return {
    name: wire.name,
    kind: wire.kind,
    spanContext: () => context,
    parentSpanContext: wire.parent,
    startTime: wire.startTime,
    endTime: wire.endTime,
    duration: wire.duration,
    ended: true,
    status: wire.status,
    attributes: wire.attributes,
    events: wire.events,
    links: wire.links.map((link) => ({ ...link, context: withState(link.context) })),
    droppedAttributesCount: wire.dropped[0],
    droppedEventsCount: wire.dropped[1],
    droppedLinksCount: wire.dropped[2],
    resource,
    instrumentationScope: getScope(wire.scope),
  };
};
parentPort.on("message", (message) => {
  if (message.type === "export") {
    exporter.export(message.spans.map(toSpan), (result) =>
      parentPort.postMessage({ id: message.id, code: result.code, error: result.error?.message }),
    );
  } else if (message.type === "flush") {
    exporter.forceFlush().then(
      () => parentPort.postMessage({ id: message.id, code: 0 }),
      (error) => parentPort.postMessage({ id: message.id, code: 1, error: String(error) }),
    );
  } else if (message.type === "shutdown") {
    exporter.shutdown().finally(() => parentPort.close());
  }
});
`;

const EXPORTER_MODULES = {
  "http/json": "@opentelemetry/exporter-trace-otlp-http",
  "http/protobuf": "@opentelemetry/exporter-trace-otlp-proto",
} as const;

/**
 * A `SpanExporter` that hands each batch, as plain data, to a worker thread running the official OTLP/HTTP
 * exporter: encoding (JSON or protobuf) and sending happen off the event loop the runs share, so a
 * traced step pays for building its spans and one copy, not for the encoder.
 */
export class WorkerSpanExporter implements SpanExporter {
  readonly #worker: Worker;
  readonly #pending = new Map<number, (result: ExportResult) => void>();
  readonly #exited: Promise<void>;
  #nextId = 0;
  #failure: Error | undefined;
  #stopping = false;
  readonly #shutdownTimeoutMs: number;

  constructor(options: WorkerSpanExporterOptions) {
    this.#shutdownTimeoutMs = options.shutdownTimeoutMs ?? options.exporter.timeoutMillis + 1_000;
    const load = createRequire(import.meta.url);
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: {
        exporterPath: load.resolve(EXPORTER_MODULES[options.protocol]),
        resourcesPath: load.resolve("@opentelemetry/resources"),
        exporterOptions: options.exporter,
        resourceAttributes: options.resourceAttributes,
      },
    });
    // Never what keeps the process alive: shutdown() holds it while it flushes.
    this.#worker.unref();
    this.#worker.on("message", (message: { id: number; code: number; error?: string }) => {
      const done = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      done?.(
        message.code === 0 ? { code: 0 } : { code: 1, error: new Error(message.error ?? "export failed") },
      );
    });
    this.#worker.on("error", (error) => (this.#failure = error));
    this.#exited = new Promise((resolve) => {
      this.#worker.once("exit", (code) => {
        const failure = this.#failure ?? new Error(`the span export worker exited with code ${code}`);
        this.#failure = failure;
        for (const done of this.#pending.values()) done({ code: 1, error: failure });
        this.#pending.clear();
        if (!this.#stopping) options.onFailure(failure);
        resolve();
      });
    });
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    if (this.#failure || this.#stopping) {
      done({ code: 1, error: this.#failure ?? new Error("The span exporter is shut down.") });
      return;
    }
    const id = (this.#nextId += 1);
    this.#pending.set(id, done);
    this.#worker.postMessage({ type: "export", id, spans: spans.map(toWireSpan) });
  }

  forceFlush(): Promise<void> {
    if (this.#failure || this.#stopping) return Promise.resolve();
    const id = (this.#nextId += 1);
    return new Promise((resolve) => {
      this.#pending.set(id, () => resolve());
      this.#worker.postMessage({ type: "flush", id });
    });
  }

  /**
   * Sends what the worker still holds, then ends it; a worker still busy when `shutdownTimeoutMs` is up is
   * stopped, so that a collector that never answers cannot hold the process open.
   */
  async shutdown(): Promise<void> {
    if (!this.#stopping) {
      this.#stopping = true;
      this.#worker.ref();
      this.#worker.postMessage({ type: "shutdown" });
      const timer = setTimeout(() => void this.#worker.terminate(), this.#shutdownTimeoutMs);
      void this.#exited.then(() => clearTimeout(timer));
    }
    await this.#exited;
  }
}

function toWireSpan(span: ReadableSpan): WireSpan {
  const context = span.spanContext();
  const parent = span.parentSpanContext;
  const wire: WireSpan = {
    name: span.name,
    kind: span.kind,
    context: toWireContext(context),
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    status: span.status,
    attributes: span.attributes,
    events: span.events,
    links: span.links.map((link) => ({
      context: toWireContext(link.context),
      ...(link.attributes ? { attributes: link.attributes } : {}),
      ...(link.droppedAttributesCount ? { droppedAttributesCount: link.droppedAttributesCount } : {}),
    })),
    dropped: [span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount],
    scope: span.instrumentationScope,
  };
  if (parent) {
    wire.parent = { traceId: parent.traceId, spanId: parent.spanId, traceFlags: parent.traceFlags };
    if (parent.isRemote !== undefined) wire.parent.isRemote = parent.isRemote;
  }
  return wire;
}

function toWireContext(context: ReturnType<ReadableSpan["spanContext"]>): WireSpan["context"] {
  const wire: WireSpan["context"] = {
    traceId: context.traceId,
    spanId: context.spanId,
    traceFlags: context.traceFlags,
  };
  const state = context.traceState?.serialize();
  if (state) wire.traceState = state;
  return wire;
}
