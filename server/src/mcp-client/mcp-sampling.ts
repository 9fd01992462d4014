import {
  ErrorCode,
  McpError,
  type CreateMessageRequestParams,
  type CreateMessageResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { LlmClient, LlmMessage, ToolRunContext } from "@waddle/planner";

/** The most characters of the server's messages sent to the model (the rest is cut, and says so). */
const MAX_SAMPLING_CHARS = 200_000;

/**
 * Answers an MCP server's `sampling/createMessage` during a call with the run's agent LLM: its messages as
 * text (images and audio are named, not sent), its system prompt first. The model call is reported as the
 * tool's usage (`ctx.reportUsage`), so it counts against the run's cost and budgets. The embedded offline
 * model cannot write free text: it refuses, and the server's tool says so. Sampling with tools is refused.
 */
export async function answerSampling(input: {
  llm: LlmClient;
  params: CreateMessageRequestParams;
  signal: AbortSignal;
  context: ToolRunContext;
}): Promise<CreateMessageResult> {
  const { llm, params, context } = input;
  if (params.tools !== undefined || params.toolChoice !== undefined) {
    throw new McpError(ErrorCode.InvalidParams, "Waddle does not offer tools to sampling requests.");
  }
  if (llm.offline) {
    throw new McpError(
      ErrorCode.InvalidRequest,
      "The run uses Waddle's offline model, which cannot answer sampling requests: give the agent an LLM with a key.",
    );
  }
  const messages: LlmMessage[] = [];
  if (params.systemPrompt) messages.push({ role: "system", content: params.systemPrompt });
  for (const message of params.messages) {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const text = blocks
      .map((block) => (block.type === "text" ? block.text : `[${block.type} not shown]`))
      .join("\n");
    messages.push({ role: message.role, content: text });
  }
  let budget = MAX_SAMPLING_CHARS;
  for (const message of messages) {
    if (message.content.length > budget) message.content = `${message.content.slice(0, budget)}… [cut]`;
    budget = Math.max(0, budget - message.content.length);
  }
  const startedAt = Date.now();
  const result = await llm.complete({ messages, signal: input.signal, purpose: "tool" });
  context.reportUsage({
    provider: llm.provider,
    model: result.model ?? llm.model,
    promptTokens: result.usage?.promptTokens ?? 0,
    completionTokens: result.usage?.completionTokens ?? 0,
    reasoningTokens: result.usage?.reasoningTokens,
    costUsd: result.costUsd,
    latencyMs: Date.now() - startedAt,
    purpose: "tool",
    finishReason: result.finishReason,
  });
  return {
    role: "assistant",
    content: { type: "text", text: result.content },
    model: result.model ?? llm.model,
    stopReason: result.finishReason === "length" ? "maxTokens" : "endTurn",
  };
}
