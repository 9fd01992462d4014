import { createRequire } from "node:module";
import type { ExportResult } from "@opentelemetry/core";
import type * as Resources from "@opentelemetry/resources";
import type * as SdkTraceBase from "@opentelemetry/sdk-trace-base";
import type { ReadableSpan, Sampler, SpanExporter, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { Logger } from "../shared/logger.js";
import type { RunObserver } from "../runs/run-observer.js";
import type { RunTraceFactory } from "../runs/run-service.js";
import type { OtelSettings } from "./otel-settings.js";
import type { TracedAgent } from "./traced-agents.js";

/** Tracing as the server uses it: an observer of run events, the runs' trace contexts, tools' headers. */
export interface Tracing {
  observer: RunObserver;
  createRunTrace: RunTraceFactory;
  /** The `traceparent` an http or MCP call of this tool call sends, while its span is open. */
  getToolTraceparent(runId: string, callId: string): string | undefined;
  /** Spans lost: the export queue was full, or the collector refused them or could not be reached. */
  readonly droppedSpans: number;
  /** Ends open spans and sends what is queued, within `timeoutMs`. */
  shutdown(timeoutMs?: number): Promise<void>;
}

export interface StartTracingOptions {
  settings: OtelSettings;
  logger: Logger;
  describeAgent?: (agentId: string, version: number) => Promise<TracedAgent | undefined>;
}

/**
 * Loads the OpenTelemetry SDK and the OTLP/HTTP exporter (only now: a server without
 * `OTEL_EXPORTER_OTLP_ENDPOINT` never loads them) and returns the server's tracing. Spans go out in
 * batches from a bounded queue, so that a slow or absent collector never holds a run.
 */
export async function startTracing(options: StartTracingOptions): Promise<Tracing> {
  const { settings, logger } = options;
  // The SDK's CommonJS builds: its ESM builds import files without extensions, which only bundlers resolve.
  const load = createRequire(import.meta.url);
  const sdk = load("@opentelemetry/sdk-trace-base") as typeof SdkTraceBase;
  const resources = load("@opentelemetry/resources") as typeof Resources;
  const [{ RunTracer }, { ForcedIdGenerator }, { WorkerSpanExporter }] = await Promise.all([
    import("./run-tracer.js"),
    import("./forced-id-generator.js"),
    import("./worker-span-exporter.js"),
  ]);
  const resourceAttributes = { ...settings.resourceAttributes, "service.name": settings.serviceName };
  // Encoding and sending run in a worker thread, off the event loop that runs the runs.
  const exporter: SpanExporter = new WorkerSpanExporter({
    protocol: settings.protocol,
    exporter: { url: settings.tracesUrl, headers: settings.headers, timeoutMillis: settings.exportTimeoutMs },
    resourceAttributes,
    onFailure: (error) =>
      logger.warn("OpenTelemetry: the span export worker stopped; spans are dropped and counted", {
        error: error.message,
      }),
  });
  const counter = { dropped: 0, pending: 0, warned: false };
  const countingExporter: SpanExporter = {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      exporter.export(spans, (result) => {
        counter.pending = Math.max(0, counter.pending - spans.length);
        if (result.code !== 0) {
          counter.dropped += spans.length;
          if (!counter.warned) {
            counter.warned = true;
            logger.warn(
              "OpenTelemetry: spans not exported (counted in /metrics as waddle_otel_dropped_spans_total)",
              {
                error: result.error?.message,
              },
            );
          }
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
  const batch = new sdk.BatchSpanProcessor(countingExporter, {
    maxQueueSize: settings.maxQueueSize,
    maxExportBatchSize: Math.min(512, settings.maxQueueSize),
    scheduledDelayMillis: settings.scheduleDelayMs,
    exportTimeoutMillis: settings.exportTimeoutMs,
  });
  // Spans beyond the queue's bound are dropped here, where they can be counted.
  const bounded: SpanProcessor = {
    onStart: (span, parentContext) => batch.onStart(span, parentContext),
    onEnd(span) {
      if ((span.spanContext().traceFlags & 1) === 0) return;
      if (counter.pending >= settings.maxQueueSize) {
        counter.dropped += 1;
        return;
      }
      counter.pending += 1;
      batch.onEnd(span);
    },
    forceFlush: () => batch.forceFlush(),
    shutdown: () => batch.shutdown(),
  };
  const ids = new ForcedIdGenerator(new sdk.RandomIdGenerator());
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes(resourceAttributes),
    sampler: createSampler(sdk, settings.sampler),
    idGenerator: ids,
    spanProcessors: [bounded],
  });
  const tracer = new RunTracer({
    tracer: provider.getTracer("waddle"),
    ids,
    captureContent: settings.captureContent,
    ...(options.describeAgent ? { describeAgent: options.describeAgent } : {}),
  });
  logger.info("OpenTelemetry tracing on", {
    endpoint: settings.tracesUrl,
    protocol: settings.protocol,
    service: settings.serviceName,
    sampler: settings.sampler.name,
    captureContent: settings.captureContent,
  });
  return {
    observer: tracer,
    createRunTrace: () => tracer.createRunTrace(),
    getToolTraceparent: (runId, callId) => tracer.getToolTraceparent(runId, callId),
    get droppedSpans() {
      return counter.dropped;
    },
    async shutdown(timeoutMs = 2_000) {
      tracer.endAll();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        provider.shutdown().catch(() => undefined),
        new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
      ]);
      clearTimeout(timer);
    },
  };
}

function createSampler(sdk: typeof SdkTraceBase, sampler: OtelSettings["sampler"]): Sampler {
  const ratio = () => new sdk.TraceIdRatioBasedSampler(sampler.ratio);
  switch (sampler.name) {
    case "always_on":
      return new sdk.AlwaysOnSampler();
    case "always_off":
      return new sdk.AlwaysOffSampler();
    case "traceidratio":
      return ratio();
    case "parentbased_always_off":
      return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new sdk.ParentBasedSampler({ root: ratio() });
    default:
      return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOnSampler() });
  }
}
