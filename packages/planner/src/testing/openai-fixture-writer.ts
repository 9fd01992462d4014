import type { ServerResponse } from "node:http";
import type { FixtureCompletion, FixtureHttpError, FixtureUsage } from "./openai-fixture-replies.js";

/** What the writers need to know about the request they answer. */
export interface CompletionContext {
  id: string;
  model: string;
  promptChars: number;
  includeUsage: boolean;
  /** True once the client has gone away: writers stop. */
  isClosed(): boolean;
  /** Waits, unless the client goes away first. */
  wait(ms: number): Promise<void>;
}

export function writeHttpError(response: ServerResponse, reply: FixtureHttpError): void {
  const body = {
    error: {
      message: reply.message,
      type: reply.type ?? "invalid_request_error",
      param: reply.param ?? null,
      code: reply.code ?? null,
    },
  };
  response.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
  response.end(JSON.stringify(body));
}

export async function writeCompletion(
  response: ServerResponse,
  reply: FixtureCompletion,
  context: CompletionContext,
): Promise<void> {
  await context.wait(reply.firstTokenDelayMs ?? 0);
  if (context.isClosed()) return;
  const message: Record<string, unknown> = { role: "assistant", content: reply.content };
  if (reply.reasoning !== undefined) message[reply.reasoningField ?? "reasoning_content"] = reply.reasoning;
  const body: Record<string, unknown> = {
    id: context.id,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: reply.model ?? context.model,
    choices: [{ index: 0, message, finish_reason: reply.finishReason ?? "stop" }],
  };
  const usage = getUsage(reply, context);
  if (usage !== undefined) body.usage = usage;
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

/** Streams a completion as OpenAI does: role, reasoning deltas, content deltas, finish, usage, `[DONE]`. */
export async function writeCompletionStream(
  response: ServerResponse,
  reply: FixtureCompletion,
  context: CompletionContext,
): Promise<void> {
  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  response.flushHeaders();
  const model = reply.model ?? context.model;
  let flushed: Promise<void> = Promise.resolve();
  const send = (choices: unknown[], extra: Record<string, unknown> = {}): void => {
    const chunk = {
      id: context.id,
      object: "chat.completion.chunk",
      created: Math.floor(Date.now() / 1000),
      model,
      choices,
      ...extra,
    };
    flushed = new Promise((resolve) => response.write(`data: ${JSON.stringify(chunk)}\n\n`, () => resolve()));
  };
  const delta = (value: Record<string, unknown>): unknown[] => [
    { index: 0, delta: value, finish_reason: null },
  ];
  await context.wait(reply.firstTokenDelayMs ?? 0);
  if (context.isClosed()) return;
  send(delta({ role: "assistant", content: "" }));
  const pause = reply.chunkDelayMs ?? 0;
  for (const piece of split(reply.reasoning ?? "", reply.chunkSize)) {
    send(delta({ [reply.reasoningField ?? "reasoning_content"]: piece }));
    await context.wait(pause);
    if (context.isClosed()) return;
  }
  const pieces = reply.chunks ?? split(reply.content, reply.chunkSize);
  for (const [index, piece] of pieces.entries()) {
    if (reply.cutOff !== undefined && index >= reply.cutOff.afterChunks) {
      // Let the deltas sent so far reach the client, then break off.
      await flushed;
      if (reply.cutOff.mode === "end") response.end();
      else response.destroy();
      return;
    }
    send(delta({ content: piece }));
    await context.wait(pause);
    if (context.isClosed()) return;
  }
  send([{ index: 0, delta: {}, finish_reason: reply.finishReason ?? "stop" }]);
  const usage = getUsage(reply, context);
  if (context.includeUsage && usage !== undefined) send([], { usage });
  response.end("data: [DONE]\n\n");
}

function split(text: string, size = 8): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

function getUsage(reply: FixtureCompletion, context: CompletionContext): Record<string, unknown> | undefined {
  if (reply.usage === false) return undefined;
  const usage: FixtureUsage = reply.usage ?? estimateUsage(reply, context.promptChars);
  const completionTokens = usage.completion_tokens;
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: completionTokens,
    total_tokens: usage.prompt_tokens + completionTokens,
    ...(usage.reasoning_tokens === undefined
      ? {}
      : { completion_tokens_details: { reasoning_tokens: usage.reasoning_tokens } }),
  };
}

function estimateUsage(reply: FixtureCompletion, promptChars: number): FixtureUsage {
  const reasoning = Math.ceil((reply.reasoning ?? "").length / 4);
  const usage: FixtureUsage = {
    prompt_tokens: Math.ceil(promptChars / 4),
    completion_tokens: Math.ceil(reply.content.length / 4) + reasoning,
  };
  if (reasoning > 0) usage.reasoning_tokens = reasoning;
  return usage;
}
