import type { Logger } from "../shared/logger.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { combineRunObservers, type RunObserver } from "../runs/run-observer.js";
import { readOtelSettings } from "./otel-settings.js";
import { ServerMetrics, type MetricsSources } from "./server-metrics.js";
import type { Tracing } from "./start-tracing.js";

/** The server's metrics, and its tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` asks for it. */
export interface Observability {
  metrics: ServerMetrics;
  tracing?: Tracing;
  /** Both as one run observer. */
  observer: RunObserver;
  /** Sources known only once the runtime and sockets exist. */
  sources: LateSources;
  close(): Promise<void>;
}

type LateSources = Partial<Omit<MetricsSources, "store" | "droppedSpans">>;

/**
 * Reads the `OTEL_*` variables and starts tracing if asked: a bad setting or an SDK that fails to start is
 * reported and leaves tracing off, never the server down.
 */
export async function createObservability(options: {
  env: NodeJS.ProcessEnv;
  store: WaddleStore;
  logger: Logger;
}): Promise<Observability> {
  const { env, store, logger } = options;
  const otel = readOtelSettings(env);
  let tracing: Tracing | undefined;
  if (otel.kind === "invalid") {
    logger.error(`OpenTelemetry tracing is off: ${otel.message}`);
  } else if (otel.kind === "on") {
    try {
      const { startTracing } = await import("./start-tracing.js");
      tracing = await startTracing({
        settings: otel.settings,
        logger,
        describeAgent: async (agentId, version) => {
          const agent = await store.getAgentVersion(agentId, version);
          if (!agent) return undefined;
          const tools = Object.fromEntries(
            agent.spec.tools.map((tool) => [
              tool.name,
              { kind: tool.impl.kind, sideEffects: tool.sideEffects },
            ]),
          );
          return { name: agent.spec.name, tools };
        },
      });
    } catch (error) {
      logger.error("OpenTelemetry tracing is off: the SDK did not start", {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  const sources: LateSources = {};
  const metrics = new ServerMetrics({
    store,
    activeRuns: () => sources.activeRuns?.() ?? 0,
    queueStats: async () => sources.queueStats?.(),
    liveSockets: () => sources.liveSockets?.() ?? 0,
    ...(tracing ? { droppedSpans: () => tracing.droppedSpans } : {}),
  });
  return {
    metrics,
    ...(tracing ? { tracing } : {}),
    observer: combineRunObservers([metrics, tracing?.observer]) ?? metrics,
    sources,
    close: async () => tracing?.shutdown(),
  };
}
