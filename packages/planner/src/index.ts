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
export { isPlannerError, PLANNER_ERROR_CODES, PlannerError } from "./planner-error.js";
export type { PlannerErrorCode, PlannerErrorJson, PlannerErrorOptions } from "./planner-error.js";
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
