export type {
  LlmChunk,
  LlmClient,
  LlmCompleteOptions,
  LlmMessage,
  LlmResult,
  LlmUsage,
} from "./llm-client.js";
export type {
  PlannerView,
  PlannerViewBranch,
  PlannerViewStep,
  PlannerViewTodo,
  PlannerViewTool,
} from "./planner-view.js";
export type {
  EventSink,
  PlannerFinish,
  PlannerOutcome,
  PlannerPause,
  ResumeOptions,
  RunOptions,
} from "./run-types.js";
export type { SerializedPlannerState, StateStore } from "./state-store.js";
export { defineTool, ToolDefinitionError } from "./tool.js";
export type { ImplResolver, ToolDefinition, ToolResumeInput, ToolRunContext, ToolRunner } from "./tool.js";
export { ToolUsageReport } from "./tool-usage-report.js";
export type { ToolUsageReportInput } from "./tool-usage-report.js";
export { isPlannerError, PLANNER_ERROR_CODES, PlannerError } from "./planner-error.js";
export type { PlannerErrorCode, PlannerErrorJson, PlannerErrorOptions } from "./planner-error.js";
export { ReactPlanner } from "./react-planner.js";
export type { FromSpecOptions, LlmClientFactory } from "./react-planner.js";
export type { CandidateLlm, ReactPlannerInit } from "./planner-config.js";
export { PAUSE_KINDS, SAVED_RUN_FORMAT } from "./paused-state.js";
export type { PauseKind, PauseRecord, SavedRun } from "./paused-state.js";
export { TASK_RESULTS_NODE } from "./task-results.js";
export { buildCatalog, Catalog } from "./catalog.js";
export type { BuildCatalogOptions, CatalogTool } from "./catalog.js";
export { CATALOG_ERROR_CODES, CatalogError } from "./catalog-error.js";
export type { CatalogErrorCode } from "./catalog-error.js";
export { createMockToolRunner } from "./mock-tool-runner.js";
export type { MockToolRunnerOptions } from "./mock-tool-runner.js";
export { normalizeAction, normalizeActionDetailed } from "./normalize-action.js";
export type { ActionFormat, NormalizeActionOptions, NormalizedAction } from "./normalize-action.js";
export type { SalvagePath } from "./salvage-json.js";
export { AnswerStreamExtractor } from "./answer-stream-extractor.js";
export { createPreview, REDACTED } from "./create-preview.js";
export type { PreviewOptions } from "./create-preview.js";
export { abortableSleep } from "./abortable-sleep.js";
export type { Sleep } from "./abortable-sleep.js";
export { defaultApprovalGate } from "./approval-gate.js";
export type { ApprovalDecision, ApprovalGate, ApprovalRequest } from "./approval-gate.js";
export { DEFAULT_OPCODE_HANDLERS, TASKS_DISABLED_MESSAGE } from "./opcode-handlers.js";
export type {
  OpcodeContext,
  OpcodeHandler,
  OpcodeHandlers,
  OpcodeResult,
  TaskOpcode,
} from "./opcode-handlers.js";
export { ToolPauseSignal } from "./tool-pause-signal.js";
export type { QueuedAction, RunState, RunUsage, TrajectoryStep } from "./run-state.js";
export { isLlmError, LLM_ERROR_CODES, LlmError, RETRYABLE_LLM_ERROR_CODES } from "./llm-error.js";
export type { LlmErrorCode } from "./llm-error.js";
export {
  DEFAULT_API_KEY_ENV,
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_OPENAI_BASE_URL,
  MAX_RETRY_AFTER_MS,
  OpenAiClient,
} from "./openai-client.js";
export type { OpenAiClientOptions } from "./openai-client.js";
export { buildChatRequest, PLANNER_ACTION_JSON_SCHEMA } from "./openai-request.js";
export type { ChatRequestBody } from "./openai-request.js";
export {
  defaultParamDropMemory,
  DROPPABLE_PARAMS,
  findParamRefusal,
  ParamDropMemory,
} from "./param-drop-memory.js";
export type { DroppableParam, ParamAdjustments, ParamRefusal } from "./param-drop-memory.js";
export { computeCostUsd, DEFAULT_PRICE_TABLE, getModelPrice } from "./price-table.js";
export type { PriceTable } from "./price-table.js";
export { DEFAULT_LLM_BACKOFF, getBackoffMs, parseRetryAfterMs } from "./llm-retry.js";
export type { BackoffPolicy } from "./llm-retry.js";
// Auto-seq, write_todos and reasoning summaries, summarization, paused-state storage, background tasks,
// reasoning-effort router (issue 4's self-contained modules).
export { AUTO_SEQ_SKIP_REASONS, detectTransition } from "./auto-seq.js";
export type {
  AutoSeqEdge,
  AutoSeqSkipReason,
  AutoSeqStep,
  AutoSeqTool,
  DetectTransitionOptions,
  TransitionDetection,
  TransitionStatus,
} from "./auto-seq.js";
export { AutoSeqCache } from "./auto-seq-cache.js";
export type { AutoSeqShapeVerdict } from "./auto-seq-cache.js";
export { getPayloadFingerprint } from "./auto-seq-fingerprint.js";
export type { AutoSeqFingerprint } from "./auto-seq-fingerprint.js";
export { getAutoSeqEventData } from "./auto-seq-events.js";
export type { AutoSeqDetectionEvent } from "./auto-seq-events.js";
export { canAutoExecute } from "./auto-seq-gate.js";
export type { CanAutoExecuteOptions } from "./auto-seq-gate.js";
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
} from "./write-todos.js";
export type { TodoState, WriteTodosAck, WriteTodosErrorCode } from "./write-todos.js";
export {
  createActSummary,
  createObsSummary,
  createPlanSummary,
  createReasoningSummary,
  createReflectSummary,
  MAX_REFLECTION_CHARS,
} from "./reflection.js";
export type { ReasoningSummary, ReasoningSummaryInput } from "./reflection.js";
export {
  CHARS_PER_TOKEN,
  estimateJsonTokens,
  estimateTokens,
  MESSAGE_OVERHEAD_TOKENS,
} from "./token-estimate.js";
export { compressTrajectory, INFORMATIVE_LEVELS, TrajectorySummary } from "./rule-based-compressor.js";
export type {
  CompressedTrajectory,
  CompressTrajectoryOptions,
  TrajectoryStepInput,
} from "./rule-based-compressor.js";
export { estimateTrajectoryTokens, summarizeTrajectory } from "./trajectory-summarizer.js";
export type {
  SummarizeTrajectoryOptions,
  SummaryMethod,
  TrajectorySummaryResult,
} from "./trajectory-summarizer.js";
export { InMemoryStateStore } from "./in-memory-state-store.js";
export { createResumeToken, RESUME_TOKEN_BYTES } from "./resume-token.js";
export { TaskManager } from "./task-manager.js";
export { TASK_ERROR_CODES, TaskError } from "./task-error.js";
export type { TaskErrorCode } from "./task-error.js";
export type { TaskAction } from "./task-spawn.js";
export type {
  PendingMerge,
  SpawnedTask,
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
} from "./task-types.js";
export { buildContextCapsule, CAPSULE_LIMITS } from "./context-capsule.js";
export type { BuildContextCapsuleOptions, CapsuleAnswer, CapsuleStep } from "./context-capsule.js";
export { resolveReasoningEffort, routeReasoning } from "./reasoning-router.js";
export type {
  ConcreteReasoningEffort,
  ReasoningRoute,
  RouteCandidate,
  RouteReasoningOptions,
} from "./reasoning-router.js";
export { OfflineModel } from "./offline-model.js";
export type { OfflineModelOptions } from "./offline-model.js";
export { planOfflineAction } from "./offline-plan.js";
export type { OfflineDecision, PlanOfflineInput } from "./offline-plan.js";
export { OfflineView } from "./offline-view.js";
export { createLlmClient } from "./create-llm-client.js";
export type { CreateLlmClientOptions } from "./create-llm-client.js";
