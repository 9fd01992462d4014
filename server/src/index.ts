// The public surface of @waddle/server.
export { createWaddleServer, SERVER_VERSION } from "./server.js";
export type { WaddleServer, WaddleServerOptions } from "./server.js";
export { ConfigError, LOOPBACK_HOST, readServerConfig } from "./config.js";
export type { ServerConfig } from "./config.js";
export { readPriceTable, readRunSettings } from "./run-settings.js";
export type { RunSettings } from "./run-settings.js";
export { createRunSetup } from "./run-setup.js";
export { createRuntime } from "./create-runtime.js";
export type { Runtime, RuntimeOptions } from "./create-runtime.js";
export { followRun } from "./runs/follow-run.js";
export { collectSecretValues } from "./secrets/collect-secret-values.js";
export type { RunSetup, RunSetupOptions } from "./run-setup.js";
export {
  DEFAULT_LLM_KEY_ENV,
  DEFAULT_LLM_ORIGIN,
  LlmEndpointError,
  LlmEndpointPolicy,
  parseLlmAllow,
  parseLlmKeyEnvs,
} from "./llm/llm-endpoint-policy.js";
export type { LlmEndpointRefusal } from "./llm/llm-endpoint-policy.js";
export { BoundedErrorLlm, getBoundedLlmError, MAX_LLM_ERROR_MESSAGE } from "./llm/bounded-error-llm.js";
export { ApiError, isApiError, isApiErrorCode, isWireError } from "./shared/api-error.js";
export { createLogger } from "./shared/logger.js";
export { protoSafeReviver, safeJsonParse } from "./shared/safe-json.js";
export type { SafeJsonResult } from "./shared/safe-json.js";
export type { Logger, LogLevel } from "./shared/logger.js";
export { MemoryStore } from "./store/memory-store.js";
export { SqliteStore } from "./store/sqlite-store.js";
export type { SqliteStoreOptions } from "./store/sqlite-store.js";
export { PgStore } from "./store/pg-store.js";
export type { PgStoreOptions } from "./store/pg-store.js";
export { PausedStateStore } from "./store/paused-state-store.js";
export { storeConformanceCases } from "./store/store-conformance.js";
export type { StoreConformanceCase } from "./store/store-conformance.js";
export { isStoreError, StoreError } from "./store/waddle-store.js";
export type {
  AppendBatchOptions,
  AppendEventOptions,
  ListRunsOptions,
  NewRun,
  RunCheckpoint,
  RunClaim,
  RunPatch,
  RunWork,
  StoreErrorCode,
  TaskRecord,
  WaddleStore,
} from "./store/waddle-store.js";
export { exportAgentTypeScript } from "./agents/export-agent-typescript.js";
export { importAgent, mergeHints } from "./agents/import-agent.js";
export { loadExampleAgents } from "./agents/load-example-agents.js";
export {
  createDefaultPlannerFactory,
  createServerLlm,
  MAX_AGENT_DEPTH,
} from "./runs/default-planner-factory.js";
export type { DefaultPlannerFactoryOptions } from "./runs/default-planner-factory.js";
export { RunEventHub } from "./runs/run-event-hub.js";
export { RunManager } from "./runs/run-manager.js";
export type { RunManagerOptions } from "./runs/run-manager.js";
export type {
  CreatedPlanner,
  CreatePlannerOptions,
  PlannerFactory,
  RunnablePlanner,
} from "./runs/planner-factory.js";
export type { RunCommands, StartRunOptions } from "./runs/run-service.js";
export { createRunId, RunService } from "./runs/run-service.js";
export { createImplResolver } from "./runs/create-impl-resolver.js";
export type { ImplResolverOptions } from "./runs/create-impl-resolver.js";
export { HostAllowList } from "./tools/host-allow-list.js";
export { isPrivateAddress, toCanonicalAddress } from "./tools/private-address.js";
export { resolveAllowedAddress, systemLookup } from "./tools/resolve-allowed-address.js";
export type { HostLookup, ResolvedAddress } from "./tools/resolve-allowed-address.js";
export { createHttpToolRunner } from "./tools/http-tool.js";
export { createLlmToolRunner } from "./tools/llm-tool.js";
export { defaultModuleImporter, loadToolModules } from "./tools/load-tool-modules.js";
export type { LoadedTools, ModuleImporter } from "./tools/load-tool-modules.js";
export { SecretRedactor } from "./secrets/secret-redactor.js";
export { ToolExecutionError } from "./tools/tool-execution-error.js";
export type { ToolExecutionErrorCode } from "./tools/tool-execution-error.js";
export { getJsonSchema, isToolDefinition, ToolRegistry } from "./tools/tool-registry.js";
export type { RegisteredTool } from "./tools/tool-registry.js";
