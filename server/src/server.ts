import { readFileSync } from "node:fs";
import type { WaddleServer, WaddleServerOptions } from "./server-options.js";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestRunRecord } from "@waddle/protocol";
import { assertHostAllowed, LOOPBACK_HOST } from "./config.js";
import { createApp } from "./create-app.js";
import { AuditTrail } from "./access/audit-trail.js";
import { DEFAULT_RATE_LIMIT, parseRateLimit, RateLimits } from "./access/rate-limits.js";
import { createLiveSettingsView } from "./agents/server-settings-view.js";
import { createGuardSampleChecker } from "./guards/guard-sample-checker.js";
import { createToolTester } from "./runs/tool-tester.js";
import { CredentialVault } from "./credentials/credential-vault.js";
import { createServerLlm } from "./runs/default-planner-factory.js";
import { createSessionServices } from "./sessions/create-session-services.js";
import type { TaskHostSource } from "./runs/run-executor.js";
import { createPartsHealth } from "./create-parts-health.js";
import { createInbox } from "./inbox/create-inbox.js";
import { createRunSetup } from "./run-setup.js";
import { createRuntime } from "./create-runtime.js";
import { createObservability, type Observability } from "./observability/create-observability.js";
import { createAccessGuards } from "./access/access-guard.js";
import { Authenticator } from "./access/authenticator.js";
import { getAgentRoom } from "./http/agent-watchers.js";
import { TestRunEnds } from "./releases/test-run-ends.js";
import { TestRunService } from "./agent-tests/test-run-service.js";
import { ShadowService } from "./releases/shadow/shadow-service.js";
import type { QueueMode } from "./scale/queue-mode.js";
import { openServerStore } from "./store/open-server-store.js";
import { createSockets } from "./create-sockets.js";
import { startTriggers, type Triggers } from "./triggers/start-triggers.js";
import { createNotifications, type Notifications } from "./notifications/create-notifications.js";
import { combineRunObservers } from "./runs/run-observer.js";

export type { WaddleServer, WaddleServerOptions } from "./server-options.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

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
  let notifications: Notifications | undefined;
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
    const queue = options.redisUrl
      ? { redisUrl: options.redisUrl, worker: options.role !== "api" }
      : undefined;
    notifications = createNotifications({
      publicUrl: options.publicUrl,
      store,
      vault,
      logger,
      queue,
      settings: options.notifications,
    });
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
      observer:
        combineRunObservers([observability.observer, notifications.observer]) ?? notifications.observer,
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
    sessions.onChange(notifications.onSessionChange);
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
    const { notify } = notifications;
    triggers = await startTriggers({ store, runs, hub, logger, notify, ...(leaseMs ? { leaseMs } : {}) });
    const auditTrail = new AuditTrail({ store: store.audit, logger, redactor: setup.redactor });
    const inbox = createInbox({ store, runs, hub, sessions, audit: auditTrail, logger });
    notifications.listenToInbox(inbox.events);
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
        guardChecks: registry,
      }),
      toolTester: createToolTester({ ...setup, store, getRunSettings }),
      guardChecker: createGuardSampleChecker({ ...setup, store, getRunSettings }),
      runs,
      hub,
      sessions,
      turns,
      tasks,
      tests,
      testRunEnds,
      shadows: new ShadowService({ store, createPlanner: runtime.createPlanner, logger }),
      triggers,
      inbox: inbox.service,
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
      notifications,
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
      inbox: inbox.service,
    });
    revocations.cut = cutKey;
    await inbox.start();
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
    const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    notifications.start(url);
    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        inbox.close();
        await triggers?.close();
        await runs.close();
        await notifications?.close();
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
      url,
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
      notifications,
      inbox,
      close,
    };
  } catch (error) {
    await triggers?.close();
    await notifications?.close();
    await queueMode?.close();
    await mcp.close();
    await observability?.close();
    await store.close();
    unlock();
    throw error;
  }
}
