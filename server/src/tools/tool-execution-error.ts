import { ApiError } from "../shared/api-error.js";

/** Codes of the failures the server's tool kinds report (they reach the LLM as `failure.error_code`). */
export type ToolExecutionErrorCode =
  | "host_not_allowed"
  | "address_not_allowed"
  | "invalid_url"
  | "missing_arg"
  | "invalid_arg"
  | "missing_secret"
  | "http_error"
  | "http_timeout"
  | "response_too_large"
  | "too_many_redirects"
  | "invalid_llm_output"
  | "unknown_module_tool"
  | "invalid_module_output"
  | "unknown_agent"
  | "agent_depth_exceeded"
  | "agent_cycle"
  | "subagent_paused"
  | "subagent_failed"
  | "mcp_server_not_configured"
  | "mcp_unknown_tool"
  | "mcp_tool_unavailable"
  | "mcp_unavailable"
  | "mcp_connection_closed"
  | "mcp_timeout"
  | "mcp_tool_error"
  | "mcp_error"
  | "a2a_card_invalid"
  | "a2a_unavailable"
  | "a2a_task_failed"
  | "a2a_task_unknown";

/**
 * A tool call that failed in a way the planner turns into a `failure` observation. `retryable: false` marks
 * failures that a retry cannot fix (a host off the allow-list, a missing secret).
 */
export class ToolExecutionError extends ApiError<ToolExecutionErrorCode> {
  declare readonly details?: Record<string, unknown>;

  constructor(
    code: ToolExecutionErrorCode,
    message: string,
    readonly retryable = false,
    details?: Record<string, unknown>,
  ) {
    super(code, message, details);
    this.name = "ToolExecutionError";
  }
}
