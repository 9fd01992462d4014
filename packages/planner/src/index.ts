export type {
  LlmChunk,
  LlmClient,
  LlmCompleteOptions,
  LlmMessage,
  LlmResult,
  LlmUsage,
} from "./llm/llm-client.js";
export type {
  PlannerView,
  PlannerViewBranch,
  PlannerViewStep,
  PlannerViewTodo,
  PlannerViewTool,
} from "./run/planner-view.js";
export type {
  EventSink,
  PlannerFinish,
  PlannerOutcome,
  PlannerPause,
  ResumeOptions,
  RunOptions,
} from "./run/run-types.js";
export type { SerializedPlannerState, StateStore } from "./pause/state-store.js";
export { defineTool, ToolDefinitionError } from "./catalog/tool.js";
export type {
  ImplResolver,
  ToolDefinition,
  ToolResumeInput,
  ToolRunContext,
  ToolRunner,
} from "./catalog/tool.js";
export { ToolUsageReport } from "./catalog/tool-usage-report.js";
export type { ToolUsageReportInput } from "./catalog/tool-usage-report.js";
export { isPlannerError, PLANNER_ERROR_CODES, PlannerError } from "./errors/planner-error.js";
export type { PlannerErrorCode, PlannerErrorJson, PlannerErrorOptions } from "./errors/planner-error.js";
export { ReactPlanner } from "./loop/react-planner.js";
export type { FromSpecOptions, LlmClientFactory } from "./loop/react-planner.js";
export type { CandidateLlm, ReactPlannerInit } from "./run/planner-config.js";
export { PAUSE_KINDS, SAVED_RUN_FORMAT } from "./pause/paused-state.js";
export type { PauseKind, PauseRecord, SavedRun } from "./pause/paused-state.js";
export { TASK_RESULTS_NODE } from "./tasks/task-results.js";
export { buildCatalog, Catalog } from "./catalog/catalog.js";
export type { BuildCatalogOptions, CatalogTool } from "./catalog/catalog.js";
export { CATALOG_ERROR_CODES, CatalogError } from "./errors/catalog-error.js";
export type { CatalogErrorCode } from "./errors/catalog-error.js";
export { createMockToolRunner } from "./catalog/mock-tool-runner.js";
export type { MockToolRunnerOptions } from "./catalog/mock-tool-runner.js";
export { normalizeAction, normalizeActionDetailed } from "./actions/normalize-action.js";
export type { ActionFormat, NormalizeActionOptions, NormalizedAction } from "./actions/normalize-action.js";
export type { SalvagePath } from "./actions/salvage-json.js";
export { AnswerStreamExtractor } from "./llm/answer-stream-extractor.js";
export { createPreview } from "./util/create-preview.js";
export { REDACTED } from "./secrets/redact-text.js";
export type { PreviewOptions } from "./util/create-preview.js";
export { abortableSleep } from "./util/abortable-sleep.js";
export type { Sleep } from "./util/abortable-sleep.js";
export { defaultApprovalGate } from "./tools/approval-gate.js";
export type { ApprovalDecision, ApprovalGate, ApprovalRequest } from "./tools/approval-gate.js";
export { DEFAULT_OPCODE_HANDLERS, TASKS_DISABLED_MESSAGE } from "./tasks/opcode-handlers.js";
export type {
  OpcodeContext,
  OpcodeHandler,
  OpcodeHandlers,
  OpcodeResult,
  TaskOpcode,
} from "./tasks/opcode-handlers.js";
export { ToolPauseSignal } from "./tools/tool-pause-signal.js";
export type { QueuedAction, RunState, RunUsage, TrajectoryStep } from "./run/run-state.js";
export { isLlmError, LLM_ERROR_CODES, LlmError, RETRYABLE_LLM_ERROR_CODES } from "./errors/llm-error.js";
export type { LlmErrorCode } from "./errors/llm-error.js";
export {
  DEFAULT_API_KEY_ENV,
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_OPENAI_BASE_URL,
  MAX_RETRY_AFTER_MS,
  OpenAiClient,
} from "./llm/openai/openai-client.js";
export type { OpenAiClientOptions } from "./llm/openai/openai-client.js";
export { buildChatRequest, PLANNER_ACTION_JSON_SCHEMA } from "./llm/openai/openai-request.js";
export type { ChatRequestBody } from "./llm/openai/openai-request.js";
export {
  defaultParamDropMemory,
  DROPPABLE_PARAMS,
  findParamRefusal,
  ParamDropMemory,
} from "./llm/openai/param-drop-memory.js";
export type { DroppableParam, ParamAdjustments, ParamRefusal } from "./llm/openai/param-drop-memory.js";
export { computeCostUsd, DEFAULT_PRICE_TABLE, getModelPrice } from "./llm/price-table.js";
export type { PriceTable } from "./llm/price-table.js";
export { DEFAULT_LLM_BACKOFF, getBackoffMs, parseRetryAfterMs } from "./llm/openai/llm-retry.js";
export type { BackoffPolicy } from "./llm/openai/llm-retry.js";
// Auto-seq, write_todos and reasoning summaries, summarization, paused-state storage, background tasks,
// reasoning-effort router (issue 4's self-contained modules).
export { AUTO_SEQ_SKIP_REASONS, detectTransition } from "./auto-seq/auto-seq.js";
export type {
  AutoSeqEdge,
  AutoSeqSkipReason,
  AutoSeqStep,
  AutoSeqTool,
  DetectTransitionOptions,
  TransitionDetection,
  TransitionStatus,
} from "./auto-seq/auto-seq.js";
export { AutoSeqCache } from "./auto-seq/auto-seq-cache.js";
export type { AutoSeqShapeVerdict } from "./auto-seq/auto-seq-cache.js";
export { getPayloadFingerprint } from "./auto-seq/auto-seq-fingerprint.js";
export type { AutoSeqFingerprint } from "./auto-seq/auto-seq-fingerprint.js";
export { getAutoSeqEventData } from "./auto-seq/auto-seq-events.js";
export type { AutoSeqDetectionEvent } from "./auto-seq/auto-seq-events.js";
export { canAutoExecute } from "./auto-seq/auto-seq-gate.js";
export type { CanAutoExecuteOptions } from "./auto-seq/auto-seq-gate.js";
export {
  applyNonPlannerIteration,
  applyWriteTodos,
  createTodoState,
  getTodosUpdatedEventData,
  MAX_CONSECUTIVE_PLANNER_ONLY,
  TodoItem,
  TodoStatus,
  WRITE_TODOS_ARGS_JSON_SCHEMA,
  WRITE_TODOS_DESCRIPTION,
  WRITE_TODOS_TOOL_NAME,
  WriteTodosArgs,
  WriteTodosError,
} from "./todos/write-todos.js";
export type { TodoState, WriteTodosAck, WriteTodosErrorCode } from "./todos/write-todos.js";
export {
  createActSummary,
  createObsSummary,
  createPlanSummary,
  createReasoningSummary,
  createReflectSummary,
  MAX_REFLECTION_CHARS,
} from "./trajectory/reflection.js";
export type { ReasoningSummary, ReasoningSummaryInput } from "./trajectory/reflection.js";
export {
  CHARS_PER_TOKEN,
  estimateJsonTokens,
  estimateTokens,
  MESSAGE_OVERHEAD_TOKENS,
} from "./util/token-estimate.js";
export {
  compressTrajectory,
  INFORMATIVE_LEVELS,
  TrajectorySummary,
} from "./trajectory/rule-based-compressor.js";
export type {
  CompressedTrajectory,
  CompressTrajectoryOptions,
  TrajectoryStepInput,
} from "./trajectory/rule-based-compressor.js";
export { estimateTrajectoryTokens, summarizeTrajectory } from "./trajectory/trajectory-summarizer.js";
export type {
  SummarizeTrajectoryOptions,
  SummaryMethod,
  TrajectorySummaryResult,
} from "./trajectory/trajectory-summarizer.js";
export { InMemoryStateStore } from "./pause/in-memory-state-store.js";
export { createResumeToken, RESUME_TOKEN_BYTES } from "./pause/resume-token.js";
export { TaskManager } from "./tasks/task-manager.js";
export { TASK_ERROR_CODES, TaskError } from "./errors/task-error.js";
export type { TaskErrorCode } from "./errors/task-error.js";
export type {
  PendingMerge,
  SpawnedTask,
  TaskAction,
  TaskErrorInfo,
  TaskExecute,
  TaskGroupSnapshot,
  TaskJob,
  TaskManagerEvent,
  TaskManagerOptions,
  TaskResultEntry,
  TaskSnapshot,
  TaskTimers,
  WaitResult,
} from "./tasks/task-types.js";
export { buildContextCapsule, CAPSULE_LIMITS } from "./tasks/context-capsule.js";
export type { BuildContextCapsuleOptions, CapsuleAnswer, CapsuleStep } from "./tasks/context-capsule.js";
export { resolveReasoningEffort, routeReasoning } from "./llm/reasoning-router.js";
export type {
  ConcreteReasoningEffort,
  ReasoningRoute,
  RouteCandidate,
  RouteReasoningOptions,
} from "./llm/reasoning-router.js";
export { OfflineModel } from "./llm/offline/offline-model.js";
export type { OfflineModelOptions } from "./llm/offline/offline-model.js";
export { planOfflineAction } from "./llm/offline/offline-plan.js";
export type { OfflineDecision, PlanOfflineInput } from "./llm/offline/offline-plan.js";
export { OfflineView } from "./llm/offline/offline-view.js";
export { createLlmClient } from "./llm/create-llm-client.js";
export type { CreateLlmClientOptions } from "./llm/create-llm-client.js";
