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
