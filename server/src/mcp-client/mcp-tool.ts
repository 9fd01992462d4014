import type { CallToolResult, CreateMessageResult } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { McpImpl, ToolSpec } from "@waddle/protocol";
import type { LlmClient, ToolRunContext, ToolRunner } from "@waddle/planner";
import type { z } from "zod";
import type { SecretRedactor } from "../secrets/secret-redactor.js";
import { ToolExecutionError } from "../tools/tool-execution-error.js";
import { describeError, type McpCallHooks, type McpConnection } from "./mcp-connection.js";
import { McpElicitation } from "./mcp-elicitation.js";
import { answerSampling } from "./mcp-sampling.js";

/** The longest text an MCP result may bring into the run (the rest is cut, and says so). */
export const MAX_MCP_TEXT_CHARS = 1_000_000;
/** How many non-text items a result lists by reference (the rest are counted). */
export const MAX_MCP_CONTENT_REFS = 50;
/** The SDK's own request timeout when the tool sets none: the planner's timeout aborts the call first. */
const BACKSTOP_TIMEOUT_MS = 3_600_000;
/** Added to the tool's `timeoutMs` for the SDK, so that the planner's timeout (`timeout`) always fires first. */
const BACKSTOP_MARGIN_MS = 1_000;

export interface McpToolOptions {
  tool: ToolSpec & { impl: z.output<typeof McpImpl> };
  /** The listed server the impl names; undefined when `WADDLE_MCP_SERVERS` does not list it. */
  connection: McpConnection | undefined;
  redactor: SecretRedactor;
  /**
   * The LLM that answers the server's sampling requests during a call (the agent's); without it they are
   * refused with a clear error.
   */
  samplingLlm?: () => LlmClient;
}

/**
 * Runs an `mcp` tool: calls `impl.tool` on the listed server `impl.server` with the validated args. The
 * planner's timeout and the run's cancellation abort the call, which sends MCP's cancel notification. The
 * observation is the result's `structuredContent`, else `{text}` (with embedded text resources) and
 * references to binary items; an error result (`isError`) fails the call with `mcp_tool_error`, quoting
 * the server's message for the model. During the call, the server's progress becomes `tool_progress`
 * events, an elicitation pauses the run (`await_input`) for a person, and a sampling request is answered
 * by the agent's LLM, its usage counted against the run.
 */
export function createMcpToolRunner(options: McpToolOptions): ToolRunner {
  const { tool, connection, redactor } = options;
  const { server, tool: toolName } = tool.impl;
  const where = { server, tool: toolName };
  return async (args, context) => {
    if (connection === undefined) {
      throw new ToolExecutionError(
        "mcp_server_not_configured",
        `${tool.name} uses the MCP server "${server}", which WADDLE_MCP_SERVERS does not list.`,
        false,
        { server },
      );
    }
    // The call's own signal: aborted by the run (cancel, timeout) and by an elicitation that pauses.
    const controller = new AbortController();
    const onAbort = () => controller.abort(context.signal.reason);
    if (context.signal.aborted) onAbort();
    else context.signal.addEventListener("abort", onAbort, { once: true });
    const elicitation = new McpElicitation({ ...where, resumeInput: context.resumeInput, redactor });
    let done = false;
    const hooks: McpCallHooks = {
      onProgress: (progress) => {
        if (done) return;
        context.reportProgress?.({
          progress: progress.progress,
          ...(progress.total === undefined ? {} : { total: progress.total }),
          ...(progress.message === undefined ? {} : { message: redactor.redactText(progress.message) }),
        });
      },
      onElicit: async (params) => {
        const answer = elicitation.answer(params);
        // Not answerable now: the call stops here and the run pauses until a person answers.
        if (elicitation.pending !== undefined) controller.abort(new Error("paused for a person's answer"));
        return answer;
      },
      onSample: (params, signal) => sample({ options, context, params, signal }),
    };
    let result: CallToolResult | undefined;
    let failure: unknown;
    try {
      const listed = await connection.listTools();
      const info = listed.find((candidate) => candidate.name === toolName);
      if (info === undefined) {
        const names = listed.map((candidate) => candidate.name).join(", ") || "none";
        throw new ToolExecutionError(
          "mcp_unknown_tool",
          `MCP server "${server}" lists no tool "${toolName}" (it lists: ${names}).`,
          false,
          where,
        );
      }
      if (info.unavailable !== undefined) {
        throw new ToolExecutionError(
          "mcp_tool_unavailable",
          `MCP tool "${toolName}" on "${server}" cannot be called from Waddle: ${info.unavailable}.`,
          false,
          where,
        );
      }
      result = await connection.callTool({
        tool: toolName,
        args,
        signal: controller.signal,
        timeoutMs: (tool.timeoutMs ?? BACKSTOP_TIMEOUT_MS) + BACKSTOP_MARGIN_MS,
        hooks,
      });
    } catch (error) {
      failure = error;
    } finally {
      done = true;
      context.signal.removeEventListener("abort", onAbort);
    }
    // An elicitation nobody has answered yet: the run waits for a person (outside the error mapping, so
    // that the planner sees the pause itself).
    if (elicitation.pending !== undefined && !context.signal.aborted) {
      context.pause("await_input", elicitation.pending);
    }
    if (result === undefined) throw toToolError(failure, { context, server, tool: toolName, redactor });
    try {
      return redactor.redact(toObservation(result, where));
    } catch (error) {
      throw toToolError(error, { context, server, tool: toolName, redactor });
    }
  };
}

async function sample(input: {
  options: McpToolOptions;
  context: ToolRunContext;
  params: Parameters<NonNullable<McpCallHooks["onSample"]>>[0];
  signal: AbortSignal;
}): Promise<CreateMessageResult> {
  const { options, context } = input;
  if (options.samplingLlm === undefined) {
    throw new McpError(ErrorCode.InvalidRequest, "This Waddle run has no LLM to answer sampling requests.");
  }
  const signal = AbortSignal.any([input.signal, context.signal]);
  return answerSampling({ llm: options.samplingLlm(), params: input.params, signal, context });
}

/**
 * `structuredContent` when the tool gives it. Otherwise `{text}`: its text items and the text of its
 * embedded text resources, which the model reads; other items (images, audio, blob resources, resource
 * links) are listed in `content` as bounded references with their MIME type and size, never their bytes.
 */
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
  const refs = result.content.flatMap((item) => (item.type === "text" ? [] : [toContentRef(item)]));
  if (refs.length === 0) return { text };
  const content: Record<string, unknown>[] = refs.slice(0, MAX_MCP_CONTENT_REFS);
  if (refs.length > MAX_MCP_CONTENT_REFS) {
    content.push({ type: "omitted", count: refs.length - MAX_MCP_CONTENT_REFS });
  }
  return { text, content };
}

type ContentItem = CallToolResult["content"][number];

/** A non-text item by reference: its kind, MIME type, size in bytes (or characters) and URI. */
function toContentRef(item: ContentItem): Record<string, unknown> {
  const cut = (value: unknown, max = 500) =>
    typeof value === "string" ? (value.length > max ? `${value.slice(0, max)}…` : value) : undefined;
  const defined = (entries: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
  switch (item.type) {
    case "image":
    case "audio":
      return { type: item.type, mimeType: cut(item.mimeType, 200), bytes: getBase64Bytes(item.data) };
    case "resource": {
      const resource = item.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
      return defined({
        type: "resource",
        uri: cut(resource.uri),
        mimeType: cut(resource.mimeType, 200),
        // A text resource's text is in `text`; a blob is only counted.
        ...(typeof resource.text === "string"
          ? { chars: resource.text.length, inText: true }
          : { bytes: getBase64Bytes(resource.blob ?? "") }),
      });
    }
    case "resource_link":
      return defined({
        type: "resource_link",
        uri: cut(item.uri),
        name: cut(item.name, 200),
        mimeType: cut(item.mimeType, 200),
        bytes: typeof item.size === "number" ? item.size : undefined,
      });
    default:
      return { type: cut((item as { type?: unknown }).type, 100) ?? "unknown" };
  }
}

/** The decoded size of base64 text, without decoding it. */
function getBase64Bytes(data: string): number {
  const length = data.replace(/\s/g, "").length;
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((length * 3) / 4) - padding);
}

/** The text items, then each embedded text resource's text under a line naming it. */
function getText(result: CallToolResult): string {
  const parts = result.content.flatMap((item): string[] => {
    if (item.type === "text") return [item.text];
    if (item.type === "resource" && typeof (item.resource as { text?: unknown }).text === "string") {
      const resource = item.resource as { uri: string; mimeType?: string; text: string };
      return [
        `[resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ""}]\n${resource.text}`,
      ];
    }
    return [];
  });
  const text = parts.join("\n");
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
