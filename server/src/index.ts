// The public surface of @waddle/server: what the CLI, the examples, the e2e suite and the benchmarks import.
// Everything else is internal; test helpers are in `@waddle/server/testing`.
export { createWaddleServer, SERVER_VERSION } from "./server.js";
export type { WaddleServer, WaddleServerOptions } from "./server.js";
export { createRuntime } from "./create-runtime.js";
export type { Runtime, RuntimeOptions } from "./create-runtime.js";
export { createRunSetup } from "./run-setup.js";
export type { RunSetup, RunSetupOptions } from "./run-setup.js";
export { readRunSettings } from "./run-settings.js";
export type { RunSettings } from "./run-settings.js";
export { followRun } from "./runs/follow-run.js";
export type { FollowRunOptions } from "./runs/follow-run.js";
export type {
  CreatedPlanner,
  CreatePlannerOptions,
  PlannerFactory,
  RunnablePlanner,
} from "./runs/planner-factory.js";
export { MemoryStore } from "./store/memory-store.js";
export { SqliteStore } from "./store/sqlite-store.js";
export { PgStore } from "./store/pg-store.js";
export { resolveRunTarget } from "./releases/resolve-run-target.js";
export { resolveAgentName } from "./releases/resolve-agent-name.js";
export type { WaddleStore } from "./store/waddle-store.js";
export { exportAgentTypeScript } from "./agents/export-agent-typescript.js";
export { exportAgent } from "./agents/export-agent.js";
export type { AgentExport } from "./agents/export-agent.js";
export { createLogger } from "./shared/logger.js";
export type { Logger, LogLevel } from "./shared/logger.js";
export { TestRunService } from "./agent-tests/test-run-service.js";
export type { TestRunServiceOptions } from "./agent-tests/test-run-service.js";
export { createServerLlm } from "./runs/default-planner-factory.js";
export { createAccessGuards, type AccessGuards } from "./access/access-guard.js";
export { Authenticator } from "./access/authenticator.js";
export { generateApiKey, hashSecret } from "./access/api-key-secret.js";
