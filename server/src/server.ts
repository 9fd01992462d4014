import { readFileSync } from "node:fs";
import type { Express } from "express";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PriceTable } from "@waddle/planner";
import type { TestRunRecord } from "@waddle/protocol";
import { assertHostAllowed, LOOPBACK_HOST } from "./config.js";
import { createApp } from "./create-app.js";
import { AuditTrail } from "./access/audit-trail.js";
import { DEFAULT_RATE_LIMIT, parseRateLimit, RateLimits } from "./access/rate-limits.js";
import { createLiveSettingsView } from "./agents/server-settings-view.js";
import { createToolTester } from "./runs/tool-tester.js";
import { CredentialVault } from "./credentials/credential-vault.js";
import { createServerLlm } from "./runs/default-planner-factory.js";
import { createSessionServices } from "./sessions/create-session-services.js";
import type { TaskHostSource } from "./runs/run-executor.js";
import type { PartsHealth } from "./http/meta-routes.js";
import type { Logger, LogLevel } from "./shared/logger.js";
import type { McpServerConfig } from "./mcp-client/mcp-servers-config.js";
import { createRunSetup } from "./run-setup.js";
import { createRuntime } from "./create-runtime.js";
import { createObservability, type Observability } from "./observability/create-observability.js";
import type { PlannerFactory } from "./runs/planner-factory.js";
import type { RunEventHub } from "./runs/run-event-hub.js";
import type { RunService } from "./runs/run-service.js";
import type { WaddleIo } from "./http/socket-gateway.js";
import { createAccessGuards } from "./access/access-guard.js";
import { Authenticator } from "./access/authenticator.js";
import { getAgentRoom } from "./http/agent-watchers.js";
import { TestRunEnds } from "./releases/test-run-ends.js";
import { TestRunService } from "./agent-tests/test-run-service.js";
import { ShadowService } from "./releases/shadow/shadow-service.js";
import type { QueueMode, QueueRole } from "./scale/queue-mode.js";
import { openServerStore } from "./store/open-server-store.js";
import type { WaddleStore } from "./store/waddle-store.js";
import { createSockets } from "./create-sockets.js";
import { startTriggers, type Triggers } from "./triggers/start-triggers.js";
import type { ModuleImporter } from "./tools/load-tool-modules.js";
import type { ToolRegistry } from "./tools/tool-registry.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface WaddleServerOptions {
  /** 0 (the default here) picks a free port. */
  port?: number;
  host?: string;
  /** Folder of the SQLite database (`waddle.db`); ignored when `store` or `databaseUrl` is given. */
  dataDir?: string;
  /** PostgreSQL instead of SQLite (`WADDLE_DATABASE_URL`); ignored when `store` is given. */
  databaseUrl?: string;
  /** Queue mode (`WADDLE_REDIS_URL`): runs are jobs for the workers of every instance on one database. */
  redisUrl?: string;
  /** In queue mode: `all` (default), `api` (no worker) or `worker` (`WADDLE_ROLE`). */
  role?: QueueRole;
  /** In queue mode: how long a worker's claim on a run lasts unless renewed (`WADDLE_RUN_LEASE_MS`). */
  runLeaseMs?: number;
  store?: WaddleStore;
  token?: string;
  corsOrigin?: string;
  /** A folder of user module tools (`WADDLE_TOOLS_DIR`). */
  toolsDir?: string;
  /** Defaults to apps/examples/tools and apps/examples/agents; null to load none. */
  exampleToolsDir?: string | null;
  exampleAgentsDir?: string | null;
  /** Defaults to designer/dist; null to serve no designer. */
  designerDir?: string | null;
  httpAllow?: readonly string[];
  /** Secret values by name, for http tool headers (`WADDLE_SECRET_<NAME>` in main). */
  secrets?: Readonly<Record<string, string>>;
  /** Origins a spec's `llm.baseUrl` may use besides OPENAI_BASE_URL's and OpenAI's (`WADDLE_LLM_ALLOW`). */
  llmAllow?: readonly string[];
  /** Variables a spec's `apiKeyEnv` may name besides OPENAI_API_KEY (`WADDLE_LLM_KEY_ENVS`). */
  llmKeyEnvs?: readonly string[];
  /** Model prices that extend the built-in table (`WADDLE_PRICES`). */
  prices?: PriceTable;
  /** The MCP servers mcp tools may use (`WADDLE_MCP_SERVERS`); started or called on first use only. */
  mcpServers?: readonly McpServerConfig[];
  maxConcurrentRuns?: number;
  /** Where LLM keys are read (OPENAI_API_KEY, an agent's `apiKeyEnv`); defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Builds each run's planner; the default uses ReactPlanner with the server's tool kinds. */
  createPlanner?: PlannerFactory;
  importModule?: ModuleImporter;
  logger?: Logger;
  logLevel?: LogLevel | "silent";
  bodyLimit?: string;
  /**
   * `WADDLE_RATE_LIMIT`: the bucket per key and per agent on the routes that start work (`60/min` when
   * unset). Set, it also limits the local user of a server without keys or token.
   */
  rateLimit?: string;
  /** Where the runtime a ts-project export ships is (built there on first use); server/dist/export-runtime. */
  exportRuntimeDir?: string;
}

export interface WaddleServer {
  /** `http://host:port`, with the port actually bound. */
  url: string;
  host: string;
  port: number;
  /** True when runs use the embedded offline model by default (no OPENAI_API_KEY). */
  offline: boolean;
  store: WaddleStore;
  registry: ToolRegistry;
  /** The run service: over the in-process queue, or over BullMQ in queue mode. */
  runs: RunService;
  hub: RunEventHub;
  /** Set in queue mode. */
  queueMode?: QueueMode;
  /** Tests from runs: saves runs as cases and runs suites. */
  tests: TestRunService;
  io: WaddleIo;
  httpServer: HttpServer;
  /** The Express app (its routes are listed by the access table test). */
  app: Express;
  /** Marks running runs interrupted, closes sockets, the HTTP server and the database. */
  close(): Promise<void>;
}

/** The server version, from server/package.json. */
export const SERVER_VERSION: string = (() => {
  try {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, "server/package.json"), "utf8")) as {
      version?: string;
    };
    return manifest.version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
})();

/**
 * Creates and starts a Waddle server: store, tool registry, run service, REST, socket.io and the designer
 * on one port. For tests and embedding; `main.ts` calls it with settings from the environment.
 */
export async function createWaddleServer(options: WaddleServerOptions = {}): Promise<WaddleServer> {
  const host = options.host ?? LOOPBACK_HOST;
  assertHostAllowed(host, options.token);
  const env = options.env ?? process.env;
  const setup = await createRunSetup({
    env,
    settings: {
      ...(options.toolsDir ? { toolsDir: options.toolsDir } : {}),
      httpAllow: [...(options.httpAllow ?? [])],
      secrets: { ...options.secrets },
      llmAllow: [...(options.llmAllow ?? [])],
      llmKeyEnvs: [...(options.llmKeyEnvs ?? [])],
      ...(options.prices ? { prices: options.prices } : {}),
      ...(options.mcpServers ? { mcpServers: [...options.mcpServers] } : {}),
    },
    ...(options.token ? { token: options.token } : {}),
    version: SERVER_VERSION,
    exampleToolsDir:
      options.exampleToolsDir === undefined
        ? path.join(ROOT, "apps/examples/tools")
        : options.exampleToolsDir,
    ...(options.importModule ? { importModule: options.importModule } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
  });
  const { logger, registry, mcp } = setup;
  const dataDir = options.dataDir ?? path.join(ROOT, "data");
  const { store, unlock } = await openServerStore({
    ...(options.store ? { store: options.store } : {}),
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    dataDir,
    logger,
  });
  let queueMode: QueueMode | undefined;
  let triggers: Triggers | undefined;
  let observability: Observability | undefined;
  try {
    // Before any run: a wrong secrets key stops the start here, with the store closed again below.
    const vault = await CredentialVault.open({
      store: store.credentials,
      env,
      dataDir,
      settings: {
        httpAllow: options.httpAllow ?? [],
        secrets: options.secrets ?? {},
        llmAllow: options.llmAllow ?? [],
        llmKeyEnvs: options.llmKeyEnvs ?? [],
      },
      redactor: setup.redactor,
    });
    if (options.databaseUrl && vault.keySource !== "environment") {
      logger.warn(
        "PostgreSQL without WADDLE_SECRETS_KEY: credentials stored from the browser are sealed with this instance's secrets.key; set the same WADDLE_SECRETS_KEY on every instance",
      );
    }
    const getRunSettings = () => vault.getRunSettings();
    observability = await createObservability({ env, store, logger });
    const { tracing } = observability;
    setup.toolTracing.source = tracing;
    // Set once the sessions exist (they need the run service): a session's turns run their tasks as runs.
    const taskHosts: TaskHostSource & { target?: TaskHostSource } = {
      forRun: (run, toolContext) => taskHosts.target?.forRun(run, toolContext),
    };
    const runtime = await createRuntime({
      env,
      store,
      setup,
      taskHosts,
      getRunSettings,
      observer: observability.observer,
      ...(tracing ? { createRunTrace: tracing.createRunTrace } : {}),
      exampleAgentsDir:
        options.exampleAgentsDir === undefined
          ? path.join(ROOT, "apps/examples/agents")
          : options.exampleAgentsDir,
      ...(options.createPlanner ? { createPlanner: options.createPlanner } : {}),
      ...(options.maxConcurrentRuns === undefined ? {} : { maxConcurrentRuns: options.maxConcurrentRuns }),
      ...(options.redisUrl
        ? {
            queue: {
              redisUrl: options.redisUrl,
              role: options.role ?? "all",
              leaseMs: options.runLeaseMs ?? 10_000,
            },
          }
        : {}),
    });
    const { runs, hub, offline } = runtime;
    queueMode = runtime.queueMode;
    const queueStats = queueMode ? queueMode.getQueueStats.bind(queueMode) : undefined;
    Object.assign(observability.sources, {
      activeRuns: () => runs.activeCount,
      ...(queueStats ? { queueStats } : {}),
    });
    const { sessions, turns, tasks } = createSessionServices({ store, runs, hub, setup, getRunSettings });
    taskHosts.target = tasks;
    // Set once socket.io exists: test runs tell the agent's watchers of each change.
    const testUpdates: { emit?: (record: TestRunRecord) => void } = {};
    const testRunEnds = new TestRunEnds();
    const tests = new TestRunService({
      store,
      runs,
      hub,
      registry: runtime.testCases,
      logger,
      createJudgeLlm: (spec, model) =>
        createServerLlm({
          config: model ? { ...spec.llm, model } : spec.llm,
          path: "llm",
          env,
          policy: setup.llmPolicy,
          redactor: setup.redactor,
          logger,
          ...(setup.priceTable ? { priceTable: setup.priceTable } : {}),
        }),
      onUpdate: (record) => {
        testUpdates.emit?.(record);
        testRunEnds.notify(record);
      },
    });
    const interrupted = await runs.recoverRuns();
    if (interrupted.length > 0) logger.warn("runs interrupted by the last shutdown", { runs: interrupted });
    // A test run is driven by the process that started it: one left running by a stopped server never ends.
    // In queue mode another instance may be driving it, so it is left alone there.
    const testRunsInterrupted = queueMode ? [] : await tests.recoverTestRuns();
    if (testRunsInterrupted.length > 0)
      logger.warn("test runs interrupted by the last shutdown", { testRuns: testRunsInterrupted });
    const leaseMs = options.runLeaseMs;
    triggers = await startTriggers({ store, runs, hub, logger, ...(leaseMs ? { leaseMs } : {}) });
    const auditTrail = new AuditTrail({ store: store.audit, logger, redactor: setup.redactor });
    const rateLimits = new RateLimits({
      limit: parseRateLimit(options.rateLimit ?? DEFAULT_RATE_LIMIT),
      limitLocal: options.rateLimit !== undefined,
      ...(queueMode ? { redis: queueMode.createRedisConnection("rate-limits") } : {}),
    });
    // API keys and roles (server/src/access): one authenticator for HTTP and sockets.
    const authenticator = new Authenticator({
      keys: store.apiKeys,
      ...(options.token ? { token: options.token } : {}),
    });
    const revocations: { cut?: (keyId: string) => void } = {};
    const app = createApp({
      auditTrail,
      rateLimits,
      access: createAccessGuards({ authenticator, store }),
      onKeyRevoked: (keyId) => revocations.cut?.(keyId),
      store,
      registry,
      settings: createLiveSettingsView({
        env,
        getRunSettings,
        initial: { ...setup, getLlmKey: () => undefined },
        mcp: setup.mcp,
        store,
      }),
      toolTester: createToolTester({ ...setup, store, getRunSettings }),
      runs,
      hub,
      sessions,
      turns,
      tasks,
      tests,
      testRunEnds,
      shadows: new ShadowService({ store, createPlanner: runtime.createPlanner, logger }),
      triggers,
      logger,
      version: SERVER_VERSION,
      offline,
      ...(options.token ? { token: options.token } : {}),
      ...(options.corsOrigin ? { corsOrigin: options.corsOrigin } : {}),
      ...(options.designerDir === null
        ? {}
        : { designerDir: options.designerDir ?? path.join(ROOT, "designer/dist") }),
      ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
      ...(options.exportRuntimeDir ? { exportRuntimeDir: options.exportRuntimeDir } : {}),
      mcp,
      vault,
      env,
      metrics: observability.metrics,
      ...(tracing ? { traceRequests: true } : {}),
      ...(store.ping || queueMode ? { health: createPartsHealth(store, queueMode) } : {}),
    });
    const httpServer = createServer(app);
    const { io, cutKey } = createSockets({
      httpServer,
      store,
      hub,
      sessions,
      authenticator,
      logger,
      ...(options.token ? { token: options.token } : {}),
      ...(options.corsOrigin ? { corsOrigin: options.corsOrigin } : {}),
      ...(queueMode ? { queueMode } : {}),
    });
    revocations.cut = cutKey;
    observability.sources.liveSockets = () => io.engine.clientsCount;
    testUpdates.emit = (record) => io.local.to(getAgentRoom(record.agentId)).emit("test_run_updated", record);
    await new Promise<void>((resolve, reject) => {
      httpServer.once("error", reject);
      httpServer.listen(options.port ?? 0, host, () => {
        httpServer.off("error", reject);
        resolve();
      });
    });
    const port = (httpServer.address() as AddressInfo).port;
    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        await triggers?.close();
        await runs.close();
        await auditTrail.flush();
        // io.close also closes the HTTP server; dropping idle keep-alive connections lets that finish.
        await new Promise<void>((resolve) => {
          io.close(() => resolve());
          httpServer.closeAllConnections();
        });
        await queueMode?.close();
        await mcp.close();
        await observability?.close();
        await store.close();
        unlock();
      })());
    return {
      url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
      host,
      port,
      offline,
      store,
      registry,
      runs,
      hub,
      ...(queueMode ? { queueMode } : {}),
      tests,
      io,
      httpServer,
      app,
      close,
    };
  } catch (error) {
    await triggers?.close();
    await queueMode?.close();
    await mcp.close();
    await observability?.close();
    await store.close();
    unlock();
    throw error;
  }
}

/** `/api/health`'s parts: the database when it is a server (PostgreSQL), Redis in queue mode. */
function createPartsHealth(store: WaddleStore, queueMode: QueueMode | undefined): PartsHealth {
  return async () => {
    const [database, redis] = await Promise.all([
      store.ping
        ? store.ping().then(
            () => "up" as const,
            () => "down" as const,
          )
        : Promise.resolve("up" as const),
      queueMode?.getRedisHealth(),
    ]);
    return { database, ...(redis ? { redis } : {}) };
  };
}
