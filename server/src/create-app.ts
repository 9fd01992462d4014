import express, { type Express } from "express";
import { ApiError } from "./shared/api-error.js";
import { createMcpRoutes } from "./ecosystem/mcp-server/mcp-routes.js";
import { createOpenAiRoutes } from "./ecosystem/openai-compat/openai-routes.js";
import { createA2aRoutes } from "./ecosystem/a2a-server/a2a-routes.js";
import { createAguiRoutes } from "./ecosystem/agui/agui-routes.js";
import type { Logger } from "./shared/logger.js";
import type { McpClientManager } from "./mcp-client/mcp-client-manager.js";
import type { RunEventHub } from "./runs/run-event-hub.js";
import type { RunCommands } from "./runs/run-service.js";
import { protoSafeReviver } from "@waddle/protocol";
import type { WaddleStore } from "./store/waddle-store.js";
import type { ToolRegistry } from "./tools/tool-registry.js";
import type { ServerSettingsView } from "./agents/server-settings-view.js";
import { createAgentsRoutes } from "./http/agents-routes.js";
import { createToolTestRoutes } from "./http/tool-test-routes.js";
import type { ToolTester } from "./runs/tool-tester.js";
import { createGuardCheckRoutes } from "./http/guard-check-routes.js";
import type { GuardSampleChecker } from "./guards/guard-sample-checker.js";
import { createDesignerRoutes } from "./http/designer-static.js";
import { createErrorHandler } from "./http/error-handler.js";
import { createHostGuard } from "./http/host-guard.js";
import { createCredentialsRoutes } from "./http/credentials-routes.js";
import type { CredentialVault } from "./credentials/credential-vault.js";
import { createMcpServersRoutes } from "./http/mcp-servers-routes.js";
import { createMetaRoutes, type PartsHealth } from "./http/meta-routes.js";
import { createMetricsRoute } from "./observability/metrics-route.js";
import type { ServerMetrics } from "./observability/server-metrics.js";
import { createTraceContextMiddleware } from "./observability/trace-context.js";
import { createRunsRoutes } from "./http/runs-routes.js";
import { createSessionsRoutes } from "./http/sessions-routes.js";
import { getTurnSessionId } from "./http/respond-with-turn.js";
import { createA2aCardRoutes } from "./http/a2a-card-routes.js";
import { createTestsRoutes } from "./http/tests-routes.js";
import type { TestRunService } from "./agent-tests/test-run-service.js";
import { ReleaseService } from "./releases/release-service.js";
import type { TestRunEnds } from "./releases/test-run-ends.js";
import { createReleasesRoutes } from "./http/releases-routes.js";
import { createHostedPageRoutes } from "./public/hosted-page-routes.js";
import { createPublicChatRoutes } from "./public/public-chat-routes.js";
import { createPublicChatSettingsRoutes } from "./public/public-chat-settings-routes.js";
import { unlessPublicChat } from "./public/public-chat-gate.js";
import type { ShadowService } from "./releases/shadow/shadow-service.js";
import { createShadowRoutes } from "./http/shadow-routes.js";
import { createTriggersRoutes } from "./triggers/triggers-routes.js";
import { createHookRoutes } from "./triggers/hook-routes.js";
import type { Triggers } from "./triggers/start-triggers.js";
import { createInboxRoutes } from "./http/inbox-routes.js";
import type { InboxService } from "./inbox/inbox-service.js";
import { createWebhooksRoutes } from "./http/webhooks-routes.js";
import type { Notifications } from "./notifications/create-notifications.js";
import type { SessionService } from "./sessions/session-service.js";
import type { SessionTurns } from "./sessions/session-turns.js";
import type { SessionTasks } from "./sessions/session-tasks.js";
import { AuditTrail, provideAuditTrail } from "./access/audit-trail.js";
import { bindRequestContext } from "./access/request-context.js";
import { createSignInGuard, provideRateLimits, RateLimits } from "./access/rate-limits.js";
import { createAuditRoutes } from "./http/audit-routes.js";
import { createAccessGuards, type AccessGuards } from "./access/access-guard.js";
import { Authenticator } from "./access/authenticator.js";
import { createKeysRoutes } from "./http/keys-routes.js";
import { createCors, createOriginGuard, createSecurityHeaders, requireJsonBody } from "./http/security.js";

export interface CreateAppOptions {
  store: WaddleStore;
  registry: ToolRegistry;
  runs: RunCommands;
  /** Runs' live events, for the endpoints that answer once a run has ended or paused (`/mcp`, `/v1`). */
  hub: RunEventHub;
  logger: Logger;
  version: string;
  offline: boolean;
  token?: string;
  corsOrigin?: string;
  designerDir?: string;
  /** Largest accepted JSON body, e.g. "1mb". */
  bodyLimit?: string;
  /** The MCP servers of `WADDLE_MCP_SERVERS`, for `GET /api/mcp/servers`. */
  mcp?: McpClientManager;
  /** The outside parts' health for `/api/health` (PostgreSQL, Redis). */
  health?: PartsHealth;
  /** Sessions and their turns. */
  sessions: SessionService;
  turns: SessionTurns;
  /** Sessions' background tasks (cancel one, cancel all on close). */
  tasks?: SessionTasks;
  /** Tests from runs: suites and test runs (`/api/agents/:id/tests`, `/api/test-runs`). */
  tests?: TestRunService;
  /** Told when each test run ends (fed by `tests`' onUpdate): a release waits there for its gate. */
  testRunEnds?: TestRunEnds;
  /** Shadow comparisons (`/api/agents/:id/shadow`); without it their routes answer 404. */
  shadows?: ShadowService;
  /** Triggers (`/api/agents/:id/triggers`, `/hooks/:triggerId`, issue 34); without it neither is served. */
  triggers?: Triggers;
  /** The approvals inbox (`/api/inbox`, issue 34); without it its routes answer 404. */
  inbox?: InboxService;
  /** This server's settings as validation sees them (allow-lists, secrets, keys, MCP servers, agents). */
  settings?: ServerSettingsView;
  /** `POST /api/tools/test`; absent, the route is not served. */
  toolTester?: ToolTester;
  /** `POST /api/guards/check` (the designer's guard sample box); absent, the route is not served. */
  guardChecker?: GuardSampleChecker;
  /** Credentials and allowed hosts kept from the browser; without it their routes answer 404. */
  vault?: CredentialVault;
  /** Where the credentials check reads key variables (the server's environment). */
  env?: NodeJS.ProcessEnv;
  /** The audit log's writer; one on `store.audit` when left out. */
  auditTrail?: AuditTrail;
  /** Rate limits of the routes that start work and of sign-ins; `60/min` in this process when left out. */
  rateLimits?: RateLimits;
  /** `GET /metrics` (Prometheus), behind the token like the API. */
  metrics?: ServerMetrics;
  /** Tracing on: a request's `traceparent` makes the runs it starts children of the caller's trace. */
  traceRequests?: boolean;
  /** API keys and roles (server/src/access); by default over `store.apiKeys` and `token`. */
  access?: AccessGuards;
  /** Told of each revoked key (the socket gateway cuts its sockets, on every instance). */
  onKeyRevoked?: (keyId: string) => void;
  /** Where the runtime a ts-project export ships is; server/dist/export-runtime when left out. */
  exportRuntimeDir?: string;
  /** Outgoing webhooks (`/api/webhooks`) and what notifies (releases); without it their routes answer 404. */
  notifications?: Notifications;
}

/** The Express app: Host check, security headers, CORS, auth, JSON bodies, the REST routes, the designer. */
export function createApp(options: CreateAppOptions): Express {
  const app = express();
  const access =
    options.access ??
    createAccessGuards({
      store: options.store,
      authenticator: new Authenticator({
        keys: options.store.apiKeys,
        ...(options.token ? { token: options.token } : {}),
      }),
    });
  app.disable("x-powered-by");
  app.set("query parser", "simple");
  const trail = options.auditTrail ?? new AuditTrail({ store: options.store.audit, logger: options.logger });
  const limits = options.rateLimits ?? new RateLimits();
  app.use(bindRequestContext);
  app.use(createHostGuard(options.token));
  app.use(createSecurityHeaders());
  app.use(unlessPublicChat(createCors(options.corsOrigin)));
  app.use(provideAuditTrail(trail));
  app.use(provideRateLimits(limits));
  app.use(createSignInGuard({ limits, onFailed: (ip) => trail.noteFailedSignIn(ip) }));
  if (options.traceRequests) app.use(createTraceContextMiddleware());
  if (options.metrics) {
    app.get("/metrics", access.authenticate, access.authorize, createMetricsRoute(options.metrics));
  }
  // Public chats (issue 33): anonymous visitors with a publishable key, never an API key (server/src/public).
  app.use(
    "/public",
    createPublicChatRoutes({
      store: options.store,
      hub: options.hub,
      sessions: options.sessions,
      turns: options.turns,
      limits,
      logger: options.logger,
    }),
  );

  // Webhook triggers (issue 34): each delivery is checked by its trigger's secret, never by a key or token.
  if (options.triggers) {
    const { firer } = options.triggers;
    app.use("/hooks", createHookRoutes({ store: options.store, firer, hub: options.hub, limits }));
  }

  const api = express.Router();
  api.use(createOriginGuard(options.corsOrigin));
  api.use(access.authenticate);
  api.use(requireJsonBody);
  api.use(express.json({ limit: options.bodyLimit ?? "1mb", reviver: protoSafeReviver, strict: false }));
  // The permission and agent scope of every route (access/route-permissions.ts).
  api.use(access.authorize);
  api.use(
    createKeysRoutes({
      store: options.store,
      authenticator: access.authenticator,
      onRevoke: (keyId) => options.onKeyRevoked?.(keyId),
    }),
  );
  // A run, or a session's turn: a turn's bucket is its session's agent's, whatever the body names.
  const getSessionAgent = async (sessionId: string) => (await options.store.sessions.get(sessionId))?.agentId;
  api.post(
    "/runs",
    limits.middleware((request) => {
      const sessionId = getTurnSessionId(request.body);
      if (sessionId !== undefined) return getSessionAgent(sessionId);
      const agentId = (request.body as { agentId?: unknown } | undefined)?.agentId;
      return typeof agentId === "string" ? agentId : undefined;
    }),
  );
  api.post(
    "/sessions/:id/turns",
    limits.middleware((request) => getSessionAgent(String(request.params["id"]))),
  );
  api.use(createAuditRoutes({ audit: options.store.audit }));
  api.use(
    createMetaRoutes({
      registry: options.registry,
      version: options.version,
      offline: options.offline,
      authRequired: options.token !== undefined,
      ...(options.health ? { health: options.health } : {}),
    }),
  );
  if (options.tests) api.use(createTestsRoutes({ store: options.store, tests: options.tests }));
  const releases = new ReleaseService({
    store: options.store,
    tests: options.tests,
    ends: options.testRunEnds,
    notify: options.notifications?.notify,
  });
  api.use(createReleasesRoutes({ store: options.store, releases }));
  api.use(createPublicChatSettingsRoutes({ store: options.store }));
  if (options.shadows) api.use(createShadowRoutes({ shadows: options.shadows }));
  if (options.triggers) api.use(createTriggersRoutes({ triggers: options.triggers.service }));
  if (options.inbox) api.use(createInboxRoutes({ inbox: options.inbox }));
  api.use(
    "/agents",
    createAgentsRoutes({
      store: options.store,
      registry: options.registry,
      ...(options.settings ? { settings: options.settings } : {}),
      ...(options.exportRuntimeDir ? { exportRuntimeDir: options.exportRuntimeDir } : {}),
    }),
  );
  if (options.toolTester) api.use("/tools", createToolTestRoutes({ tester: options.toolTester }));
  if (options.guardChecker) api.use("/guards", createGuardCheckRoutes({ checker: options.guardChecker }));
  api.use("/runs", createRunsRoutes({ store: options.store, runs: options.runs, turns: options.turns }));
  api.use(
    "/sessions",
    createSessionsRoutes({
      sessions: options.sessions,
      turns: options.turns,
      ...(options.tasks ? { tasks: options.tasks } : {}),
    }),
  );
  api.use("/mcp", createMcpServersRoutes(options.mcp ? { mcp: options.mcp } : {}));
  api.use("/a2a", createA2aCardRoutes(options.settings ? { settings: options.settings } : {}));
  if (options.vault)
    api.use(createCredentialsRoutes({ vault: options.vault, env: options.env ?? process.env }));
  if (options.notifications) api.use(createWebhooksRoutes(options.notifications));
  api.use((request) => {
    throw new ApiError(
      "not_found",
      `No API route ${request.method} /api${request.path}: see docs/reference/rest-routes.md for every route.`,
    );
  });
  app.use("/api", api);
  // The saved agents as MCP tools and as OpenAI-compatible models (server/src/ecosystem).
  const ecosystem = {
    runner: {
      runs: options.runs,
      hub: options.hub,
      store: options.store,
      turns: options.turns,
      ...(options.mcp ? { mcp: options.mcp } : {}),
      audit: trail,
    },
    rateLimits: limits,
    logger: options.logger,
    access,
    ...(options.token ? { token: options.token } : {}),
    ...(options.corsOrigin ? { corsOrigin: options.corsOrigin } : {}),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
  };
  app.use("/mcp", ...createMcpRoutes({ ...ecosystem, version: options.version }));
  app.use("/v1", ...createOpenAiRoutes(ecosystem));
  // Every agent as an A2A agent: its Agent Card and JSON-RPC (the one place `/a2a/*` is mounted).
  app.use(
    "/a2a",
    access.authenticate,
    access.authorize,
    createA2aRoutes({
      runner: { ...ecosystem.runner, turns: options.turns },
      version: options.version,
      logger: options.logger,
      isAuthRequired: () => access.authenticator.isRequired(),
      rateLimits: limits,
      ...(options.corsOrigin ? { corsOrigin: options.corsOrigin } : {}),
      ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    }),
  );
  // Every agent as an AG-UI agent (CopilotKit, `@ag-ui/client`): RunAgentInput in, AG-UI events out.
  app.use(
    "/agui",
    createAguiRoutes({
      runner: { ...ecosystem.runner, turns: options.turns },
      access,
      logger: options.logger,
      rateLimits: limits,
      ...(options.corsOrigin ? { corsOrigin: options.corsOrigin } : {}),
      ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    }),
  );
  // OAuth discovery (MCP clients probe it): a JSON 404, never the designer's page.
  app.use("/.well-known", (request) => {
    throw new ApiError(
      "not_found",
      `No /.well-known${request.path}: this server has no OAuth. ${options.token ? "Send its WADDLE_TOKEN as a Bearer token." : "It needs no token."}`,
    );
  });
  // The hosted chat page and embed.js (issue 33), before the designer's catch-all.
  app.use(
    createHostedPageRoutes({
      designerDir: options.designerDir,
      findChat: async (publicId) => {
        const chat = await options.store.publicChat.chats.getByPublicId(publicId);
        return chat && (await options.store.getAgent(chat.agentId)) ? chat : undefined;
      },
    }),
  );
  app.use(createDesignerRoutes(options.designerDir));
  app.use(createErrorHandler(options.logger));
  return app;
}
