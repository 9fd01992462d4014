export type {
  LlmChunk,
  LlmClient,
  LlmCompleteOptions,
  LlmMessage,
  LlmResult,
  LlmUsage,
} from "./llm-client.js";
export type { SerializedPlannerState, StateStore } from "./state-store.js";
export { defineTool, ToolDefinitionError } from "./tool.js";
export type { ToolDefinition, ToolResumeInput, ToolRunContext } from "./tool.js";
