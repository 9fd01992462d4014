import type { Express } from "express";
import type { Server as HttpServer } from "node:http";
import type { PriceTable } from "@waddle/planner";
import type { TestRunService } from "./agent-tests/test-run-service.js";
import type { WaddleIo } from "./http/socket-gateway.js";
import type { Inbox } from "./inbox/create-inbox.js";
import type { McpServerConfig } from "./mcp-client/mcp-servers-config.js";
import type { NotificationSettings, Notifications } from "./notifications/create-notifications.js";
import type { PlannerFactory } from "./runs/planner-factory.js";
import type { RunEventHub } from "./runs/run-event-hub.js";
import type { RunService } from "./runs/run-service.js";
import type { QueueMode, QueueRole } from "./scale/queue-mode.js";
import type { Logger, LogLevel } from "./shared/logger.js";
import type { WaddleStore } from "./store/waddle-store.js";
import type { ModuleImporter } from "./tools/load-tool-modules.js";
import type { ToolRegistry } from "./tools/tool-registry.js";

// What `createWaddleServer` (server.ts) takes and gives, apart from it so that server.ts stays its wiring.

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
  /** `WADDLE_PUBLIC_URL`: where people reach the designer (notifications link there); else `url`. */
  publicUrl?: string;
  /** How notifications are delivered (timeouts, retries); tests shorten the waits. */
  notifications?: NotificationSettings;
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
  /** Outgoing webhooks: `notifications.notify(type, data)` enqueues one (triggers, the inbox). */
  notifications: Notifications;
  /** The approvals inbox; `inbox.events` is the notifications' hook (issue 34). */
  inbox: Inbox;
  /** Marks running runs interrupted, closes sockets, the HTTP server and the database. */
  close(): Promise<void>;
}
