import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { McpImpl, ToolSpec } from "@waddle/protocol";
import type { ToolRunContext, ToolRunner } from "@waddle/planner";
import type { z } from "zod";
import type { SecretRedactor } from "../secrets/secret-redactor.js";
import { ToolExecutionError } from "../tools/tool-execution-error.js";
import { describeError, type McpConnection } from "./mcp-connection.js";

/** The longest text an MCP result may bring into the run (the rest is cut, and says so). */
export const MAX_MCP_TEXT_CHARS = 1_000_000;
/** The SDK's own request timeout when the tool sets none: the planner's timeout aborts the call first. */
const BACKSTOP_TIMEOUT_MS = 3_600_000;
/** Added to the tool's `timeoutMs` for the SDK, so that the planner's timeout (`timeout`) always fires first. */
const BACKSTOP_MARGIN_MS = 1_000;

export interface McpToolOptions {
  tool: ToolSpec & { impl: z.output<typeof McpImpl> };
  /** The listed server the impl names; undefined when `WADDLE_MCP_SERVERS` does not list it. */
  connection: McpConnection | undefined;
  redactor: SecretRedactor;
}

/**
 * Runs an `mcp` tool: calls `impl.tool` on the listed server `impl.server` with the validated args. The
 * planner's timeout and the run's cancellation abort the call, which sends MCP's cancel notification. The
 * observation is the result's `structuredContent`, else `{text}`; an error result (`isError`) fails the
 * call with `mcp_tool_error`, quoting the server's message for the model.
 */
export function createMcpToolRunner(options: McpToolOptions): ToolRunner {
  const { tool, connection, redactor } = options;
  const { server, tool: toolName } = tool.impl;
  return async (args, context) => {
    if (connection === undefined) {
      throw new ToolExecutionError(
        "mcp_server_not_configured",
        `${tool.name} uses the MCP server "${server}", which WADDLE_MCP_SERVERS does not list.`,
        false,
        { server },
      );
    }
    try {
      const listed = await connection.listTools();
      if (!listed.some((info) => info.name === toolName)) {
        const names = listed.map((info) => info.name).join(", ") || "none";
        throw new ToolExecutionError(
          "mcp_unknown_tool",
          `MCP server "${server}" lists no tool "${toolName}" (it lists: ${names}).`,
          false,
          { server, tool: toolName },
        );
      }
      const result = await connection.callTool({
        tool: toolName,
        args,
        signal: context.signal,
        timeoutMs: (tool.timeoutMs ?? BACKSTOP_TIMEOUT_MS) + BACKSTOP_MARGIN_MS,
      });
      return redactor.redact(toObservation(result, { server, tool: toolName }));
    } catch (error) {
      throw toToolError(error, { context, server, tool: toolName, redactor });
    }
  };
}

/** `structuredContent` when the tool gives it, else the text of its content (`{text}`) and other items. */
export function toObservation(
  result: CallToolResult,
  where: { server: string; tool: string },
): Record<string, unknown> {
  const text = getText(result);
  if (result.isError) {
    throw new ToolExecutionError(
      "mcp_tool_error",
      `MCP tool "${where.tool}" on "${where.server}" answered with an error: ${text.slice(0, 2_000) || "(no message)"}`,
      false,
      where,
    );
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  const others = result.content
    .filter((item) => item.type !== "text")
    .map((item) => {
      const { data: _data, blob: _blob, text: _text, ...rest } = item as Record<string, unknown>;
      const resource = rest.resource as Record<string, unknown> | undefined;
      return resource ? { ...rest, resource: { uri: resource.uri, mimeType: resource.mimeType } } : rest;
    });
  return others.length > 0 ? { text, content: others } : { text };
}

function getText(result: CallToolResult): string {
  const text = result.content.flatMap((item) => (item.type === "text" ? [item.text] : [])).join("\n");
  return text.length > MAX_MCP_TEXT_CHARS
    ? `${text.slice(0, MAX_MCP_TEXT_CHARS)}… [cut: ${text.length} characters in all]`
    : text;
}

function toToolError(
  error: unknown,
  options: { context: ToolRunContext; server: string; tool: string; redactor: SecretRedactor },
): unknown {
  const { server, tool, redactor } = options;
  // A cancelled run or a timeout of the planner's: the planner reports it, not this error.
  if (options.context.signal.aborted) return error;
  const where = { server, tool };
  if (error instanceof ToolExecutionError) {
    const message = redactor.redactText(error.message);
    return message === error.message
      ? error
      : new ToolExecutionError(error.code, message, error.retryable, error.details);
  }
  const message = redactor.redactText(describeError(error));
  if (error instanceof McpError) {
    if (error.code === ErrorCode.ConnectionClosed) {
      return new ToolExecutionError(
        "mcp_connection_closed",
        `MCP server "${server}" closed the connection during ${tool}; it is started again on the next call.`,
        true,
        where,
      );
    }
    if (error.code === ErrorCode.RequestTimeout) {
      return new ToolExecutionError("mcp_timeout", `${tool} on "${server}": ${message}`, true, where);
    }
    return new ToolExecutionError("mcp_error", `${tool} on "${server}": ${message}`, false, where);
  }
  return new ToolExecutionError(
    "mcp_unavailable",
    `MCP server "${server}" failed during ${tool}: ${message}; it is connected again on the next call.`,
    true,
    where,
  );
}
