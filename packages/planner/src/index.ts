// @waddle/planner: what code built on the planner needs. Pieces of the engine that tests, benchmarks and
// the server's own tooling reach for are in `@waddle/planner/internal` (no stability promise); test
// doubles and fixtures in `@waddle/planner/testing`.

// The planner and its runs.
export { ReactPlanner } from "./loop/react-planner.js";
export type { FromSpecOptions, LlmClientFactory } from "./loop/react-planner.js";
export type { CandidateLlm, ReactPlannerInit } from "./loop/planner-config.js";
export type {
  EventSink,
  PlannerFinish,
  PlannerOutcome,
  PlannerPause,
  RecoverOptions,
  ResumeOptions,
  RunOptions,
} from "./run/run-types.js";
export type { CheckpointSink, InFlightAction, RunCheckpoint } from "./run/run-checkpoint.js";
export type {
  CallRecord,
  CallRecordSink,
  CallReplay,
  RecordedLlmResult,
  RunCalls,
  ServedToolCall,
  ToolCallQuery,
} from "./run/call-record.js";
export type { TrajectoryStep } from "./run/run-state.js";
export type { ForkInput } from "./loop/steps/fork-run.js";
export type { ForkEditCheck } from "./replay/check-fork-edit.js";
export {
  createRecordedCallMatcher,
  getCanonicalJson,
  getLlmRequestKey,
  getToolCallKey,
} from "./replay/recorded-call-matcher.js";
export type { RecordedCallMatcherOptions } from "./replay/recorded-call-matcher.js";
export { getRecordedSteps, getRecordPrefix } from "./replay/rebuild-run-state.js";
export type {
  PlannerView,
  PlannerViewBranch,
  PlannerViewStep,
  PlannerViewTodo,
  PlannerViewTool,
} from "./run/planner-view.js";

// Tools and the catalog.
export { defineTool, ToolDefinitionError } from "./catalog/tool.js";
export { defineGuardCheck } from "./guards/guard-types.js";
export type {
  GuardCheckDefinition,
  GuardSpan,
  ModuleCheckResult,
  ModuleGuardCheck,
  Scanner,
  ScanResult,
} from "./guards/guard-types.js";
export { isGuardCheckDefinition } from "./guards/create-guard-engine.js";
export type { GuardChecksInput } from "./guards/create-guard-engine.js";
export { checkGuardSample } from "./guards/guard-sample.js";
export type {
  ImplResolver,
  ToolDefinition,
  ToolResumeInput,
  ToolProgressInput,
  ToolRunContext,
  ToolRunner,
} from "./catalog/tool.js";
export type { ToolUsageReportInput } from "./catalog/tool-usage-report.js";
export { ToolPauseSignal } from "./tools/tool-pause-signal.js";
export { buildCatalog, Catalog } from "./catalog/catalog.js";
export type { BuildCatalogOptions, CatalogTool } from "./catalog/catalog.js";
export { createMockToolRunner } from "./catalog/mock-tool-runner.js";
export { testToolCall } from "./tools/test-tool-call.js";
export type { TestToolCallOptions, TestToolCallResult } from "./tools/test-tool-call.js";
export type { MockToolRunnerOptions } from "./catalog/mock-tool-runner.js";

// LLM clients.
export type {
  LlmChunk,
  LlmClient,
  LlmCompleteOptions,
  LlmMessage,
  LlmResult,
  LlmUsage,
} from "./llm/llm-client.js";
export { createLlmClient } from "./llm/create-llm-client.js";
export type { CreateLlmClientOptions } from "./llm/create-llm-client.js";
export {
  DEFAULT_API_KEY_ENV,
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_OPENAI_BASE_URL,
  OpenAiClient,
} from "./llm/openai/openai-client.js";
export type { OpenAiClientOptions } from "./llm/openai/openai-client.js";
export { OfflineModel } from "./llm/offline/offline-model.js";
export type { OfflineModelOptions } from "./llm/offline/offline-model.js";
export { DEFAULT_PRICE_TABLE } from "./llm/price-table.js";
export type { PriceTable } from "./llm/price-table.js";

// What a planner can be given besides the model and tools.
export type { SerializedPlannerState } from "./run/paused-state.js";
export type { StateStore } from "./pause/state-store.js";
export { InMemoryStateStore } from "./pause/in-memory-state-store.js";
export { defaultApprovalGate } from "./tools/approval-gate.js";
export type { ApprovalDecision, ApprovalGate, ApprovalRequest } from "./tools/approval-gate.js";
export { DEFAULT_OPCODE_HANDLERS } from "./tasks/opcode-handlers.js";
export type {
  OpcodeContext,
  OpcodeHandler,
  OpcodeHandlers,
  OpcodeResult,
  TaskOpcode,
} from "./tasks/opcode-handlers.js";
export type { TaskTimers } from "./tasks/task-types.js";
export type {
  HostedSpawn,
  HostedSpawnRequest,
  HostedTaskEntry,
  HostedWaitRequest,
  HostedWaitResult,
  TaskHost,
} from "./run/task-host.js";
export type { BackgroundJob, TaskRecoverOptions, TaskRunOptions } from "./loop/task-run.js";
export type { Sleep } from "./util/abortable-sleep.js";

// Errors.
export { isPlannerError, PLANNER_ERROR_CODES, PlannerError } from "./errors/planner-error.js";
export type { PlannerErrorCode, PlannerErrorJson, PlannerErrorOptions } from "./errors/planner-error.js";
export { isLlmError, LLM_ERROR_CODES, LlmError, RETRYABLE_LLM_ERROR_CODES } from "./errors/llm-error.js";
export type { LlmErrorCode } from "./errors/llm-error.js";
export { CATALOG_ERROR_CODES, CatalogError } from "./errors/catalog-error.js";
export type { CatalogErrorCode } from "./errors/catalog-error.js";

// Secrets: hosts that redact secrets of their own in the events they forward.
export { getPartialSecretLength, REDACTED, redactText } from "./secrets/redact-text.js";
export { createTextRedactor, StreamRedactor } from "./secrets/stream-redactor.js";
export type { TextRedactor } from "./secrets/stream-redactor.js";

// Sessions: what a turn knows of its earlier turns, kept within the agent's token budget.
export {
  compactConversation,
  DEFAULT_SESSION_CONTEXT_TOKENS,
  getSessionContextBudget,
  SESSION_CONTEXT_BUDGET_SHARE,
} from "./session/compact-conversation.js";
export type { CompactConversationOptions, CompactedConversation } from "./session/compact-conversation.js";
export { getSessionContextMeta } from "./session/session-context.js";
export {
  applySessionTaskOutcome,
  getSessionMergedResults,
  getSessionWaitResult,
  sealSessionTurn,
  spawnSessionTask,
} from "./session/session-task-ledger.js";
export type {
  SessionTaskLimits,
  SessionTaskOutcome,
  SessionTaskSpawn,
} from "./session/session-task-ledger.js";
export type { ConversationTurn, MergedResult, SessionContext } from "./session/session-context.js";

// Tests from runs: cases with recorded mocks and replies, deciding them, running them in-process.
export { createTestCaseFromRun } from "./evals/create-test-case-from-run.js";
export type { RecordedRun } from "./evals/create-test-case-from-run.js";
export { describePause } from "./evals/describe-pause.js";
export type { RunPauseFact } from "./evals/describe-pause.js";
export { evaluateTestCase } from "./evals/evaluate-test-case.js";
export type { JudgeLlmFactory, TestCaseVerdict } from "./evals/evaluate-test-case.js";
export { RecordedLlmClient } from "./evals/recorded-llm-client.js";
export { getRunFacts } from "./evals/run-facts.js";
export type { RunFacts } from "./evals/run-facts.js";
export { getTestCaseLlm, runTestCase } from "./evals/run-test-case.js";
export type { RunTestCaseOptions, TestCaseRun } from "./evals/run-test-case.js";
export { runTestSuite } from "./evals/run-test-suite.js";
export { createTestCaseTools, TestCaseToolError } from "./evals/test-case-tools.js";
export type { TestCaseTools, UnexpectedToolCall } from "./evals/test-case-tools.js";
