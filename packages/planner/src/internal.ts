// @waddle/planner/internal: pieces of the engine, for tests, benchmarks and tooling of this repository.
// Everything here may change without notice; code built on the planner imports `@waddle/planner`.

// Reply text → action.
export { normalizeAction, normalizeActionDetailed } from "./actions/normalize-action.js";
export type { ActionFormat, NormalizeActionOptions, NormalizedAction } from "./actions/normalize-action.js";
export type { SalvagePath } from "./actions/salvage-json.js";

// The run's data and saved state.
export type { QueuedAction, RunState, RunUsage, TrajectoryStep } from "./run/run-state.js";
export { PAUSE_KINDS, SAVED_RUN_FORMAT } from "./run/paused-state.js";
export type { PauseKind, PauseRecord, SavedRun } from "./run/paused-state.js";
export { createResumeToken, RESUME_TOKEN_BYTES } from "./pause/resume-token.js";
export { ToolUsageReport } from "./catalog/tool-usage-report.js";
export { createPreview } from "./util/create-preview.js";
export type { PreviewOptions } from "./util/create-preview.js";
export { abortableSleep } from "./util/abortable-sleep.js";

// LLM calls: streaming, OpenAI requests and failures, prices, the reasoning router, the offline planner.
export { AnswerStreamExtractor } from "./llm/answer-stream-extractor.js";
export { MAX_RETRY_AFTER_MS } from "./llm/openai/openai-client.js";
export { buildChatRequest, PLANNER_ACTION_JSON_SCHEMA } from "./llm/openai/openai-request.js";
export type { ChatRequestBody } from "./llm/openai/openai-request.js";
export {
  defaultParamDropMemory,
  DROPPABLE_PARAMS,
  findParamRefusal,
  ParamDropMemory,
} from "./llm/openai/param-drop-memory.js";
export type { DroppableParam, ParamAdjustments, ParamRefusal } from "./llm/openai/param-drop-memory.js";
export { DEFAULT_LLM_BACKOFF, getBackoffMs, parseRetryAfterMs } from "./llm/openai/llm-retry.js";
export type { BackoffPolicy } from "./llm/openai/llm-retry.js";
export { computeCostUsd, getModelPrice } from "./llm/price-table.js";
export { resolveReasoningEffort, routeReasoning } from "./llm/reasoning-router.js";
export type { ConcreteReasoningEffort } from "./run/run-state.js";
export type { ReasoningRoute, RouteCandidate, RouteReasoningOptions } from "./llm/reasoning-router.js";
export { planOfflineAction } from "./llm/offline/offline-plan.js";
export type { OfflineDecision, PlanOfflineInput } from "./llm/offline/offline-plan.js";
export { OfflineView } from "./llm/offline/offline-view.js";

// Auto-seq.
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

// write_todos and reasoning summaries.
export {
  applyNonPlannerIteration,
  applyWriteTodos,
  createTodoState,
  getTodosUpdatedEventData,
  MAX_CONSECUTIVE_PLANNER_ONLY,
  WRITE_TODOS_ARGS_JSON_SCHEMA,
  WRITE_TODOS_DESCRIPTION,
  WriteTodosArgs,
  WriteTodosError,
} from "./todos/write-todos.js";
export type { WriteTodosAck, WriteTodosErrorCode } from "./todos/write-todos.js";
export { TodoItem, TodoStatus, WRITE_TODOS_TOOL_NAME } from "./run/todo-state.js";
export type { TodoState } from "./run/todo-state.js";
export {
  createActSummary,
  createObsSummary,
  createPlanSummary,
  createReasoningSummary,
  createReflectSummary,
  MAX_REFLECTION_CHARS,
} from "./trajectory/reflection.js";
export type { ReasoningSummary, ReasoningSummaryInput } from "./trajectory/reflection.js";

// Summarization.
export {
  CHARS_PER_TOKEN,
  estimateJsonTokens,
  estimateTokens,
  MESSAGE_OVERHEAD_TOKENS,
} from "./util/token-estimate.js";
export { compressTrajectory, INFORMATIVE_LEVELS } from "./trajectory/rule-based-compressor.js";
export { TrajectorySummary } from "./run/trajectory-summary.js";
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

// Background tasks.
export { TaskManager } from "./tasks/task-manager.js";
export { TASK_RESULTS_NODE } from "./loop/steps/task-results.js";
export { TASKS_DISABLED_MESSAGE } from "./tasks/opcode-handlers.js";
export { TASK_ERROR_CODES, TaskError } from "./errors/task-error.js";
export type { TaskErrorCode } from "./errors/task-error.js";
export type {
  SpawnedTask,
  TaskAction,
  TaskExecute,
  TaskGroupSnapshot,
  TaskJob,
  TaskManagerEvent,
  TaskManagerOptions,
  TaskSnapshot,
  WaitResult,
} from "./tasks/task-types.js";
export type { PendingMerge, TaskErrorInfo, TaskResultEntry } from "./run/pending-merge.js";
export { buildContextCapsule, CAPSULE_LIMITS } from "./tasks/context-capsule.js";
export type { BuildContextCapsuleOptions, CapsuleAnswer, CapsuleStep } from "./tasks/context-capsule.js";

// Tests from runs: the checks, the judge and the mock matcher on their own.
export { checkExpectations, isTrajectoryMatch } from "./evals/check-expectations.js";
export { getUnknownTools } from "./evals/evaluate-test-case.js";
export { judgeAnswer } from "./evals/judge-answer.js";
export type { JudgeOutcome } from "./evals/judge-answer.js";
export { getStatusFromEvents } from "./evals/run-facts.js";
export { isJsonEqual, ToolMockMatcher } from "./evals/tool-mock-matcher.js";
export type { MatchedMock } from "./evals/tool-mock-matcher.js";

// Guards: the scanning checks on their own (the guards benchmark).
export { createScanner } from "./guards/checks/create-scanner.js";
export type { ScannerOptions, ScanningCheck } from "./guards/checks/create-scanner.js";
export { findInjections } from "./guards/checks/prompt-injection-matcher.js";
