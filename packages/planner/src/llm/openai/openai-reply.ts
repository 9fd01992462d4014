import { z } from "zod";
import type { LlmChunk, LlmUsage } from "../llm-client.js";
import { splitThinkTags, ThinkTagSplitter } from "./openai-stream-think-tags.js";

// Only the fields the client reads; endpoints add many more (and some send nulls where OpenAI omits).
const OptionalText = z.string().nullish();

const WireUsage = z.looseObject({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().nullish() }).nullish(),
});

/** `reasoning_content` (DeepSeek, vLLM, LiteLLM) or `reasoning` (OpenRouter, Ollama, some vLLM builds). */
const WireText = z.looseObject({
  content: OptionalText,
  reasoning_content: OptionalText,
  reasoning: OptionalText,
});

const WireChunk = z.looseObject({
  model: z.string().nullish(),
  choices: z
    .array(z.looseObject({ delta: WireText.nullish(), finish_reason: z.string().nullish() }))
    .nullish(),
  usage: WireUsage.nullish(),
});

const WireCompletion = z.looseObject({
  model: z.string().nullish(),
  choices: z.array(z.looseObject({ message: WireText.nullish(), finish_reason: z.string().nullish() })),
  usage: WireUsage.nullish(),
});

/** What a chat completion amounted to, streamed or not. */
export interface ChatReply {
  /** The content, without a leading `<think>` block (its text is reasoning). */
  content: string;
  reasoning: string;
  usage?: LlmUsage;
  model?: string;
  /** Unset while a stream is still running, and when it broke off before the end. */
  finishReason?: string;
  /** Deltas that reached `onChunk` (content or reasoning). */
  deltas: number;
  /** Streaming only: routes a leading `<think>` block of the content to the reasoning. */
  thinkTags?: ThinkTagSplitter;
}

export function createChatReply(): ChatReply {
  return { content: "", reasoning: "", deltas: 0, thinkTags: new ThinkTagSplitter() };
}

/**
 * Folds one streamed chunk into the reply and forwards its deltas: reasoning (native, or the text of a
 * leading `<think>` block) to the thinking channel, content (the action JSON) to the planner's answer
 * extractor. Returns false for a chunk of another shape. `finishChatReply` ends the stream.
 */
export function applyChatChunk(reply: ChatReply, raw: unknown, onChunk?: (chunk: LlmChunk) => void): boolean {
  const parsed = WireChunk.safeParse(raw);
  if (!parsed.success) return false;
  const chunk = parsed.data;
  if (chunk.model) reply.model = chunk.model;
  const usage = readUsage(chunk.usage);
  if (usage !== undefined) reply.usage = usage;
  const choice = chunk.choices?.[0];
  if (choice === undefined) return true;
  addReasoning(reply, readReasoning(choice.delta), onChunk);
  const content = choice.delta?.content ?? "";
  if (content !== "") {
    const split = reply.thinkTags ? reply.thinkTags.push(content) : { reasoning: "", content };
    addReasoning(reply, split.reasoning, onChunk);
    addContent(reply, split.content, onChunk);
  }
  if (choice.finish_reason) reply.finishReason = choice.finish_reason;
  return true;
}

/** The stream ended: forwards content held back while it could still have been a `<think>` tag. */
export function finishChatReply(reply: ChatReply, onChunk?: (chunk: LlmChunk) => void): void {
  const split = reply.thinkTags?.end();
  if (split === undefined) return;
  addReasoning(reply, split.reasoning, onChunk);
  addContent(reply, split.content, onChunk);
}

function addReasoning(reply: ChatReply, reasoning: string, onChunk?: (chunk: LlmChunk) => void): void {
  if (reasoning === "") return;
  reply.reasoning += reasoning;
  reply.deltas += 1;
  onChunk?.({ reasoning });
}

function addContent(reply: ChatReply, content: string, onChunk?: (chunk: LlmChunk) => void): void {
  if (content === "") return;
  reply.content += content;
  reply.deltas += 1;
  onChunk?.({ content });
}

/** Reads a non-streamed completion; `undefined` when it has no choice to read. */
export function readChatCompletion(raw: unknown): ChatReply | undefined {
  const parsed = WireCompletion.safeParse(raw);
  if (!parsed.success) return undefined;
  const choice = parsed.data.choices[0];
  if (choice === undefined) return undefined;
  const split = splitThinkTags(choice.message?.content ?? "");
  const reply: ChatReply = {
    content: split.content,
    reasoning: readReasoning(choice.message) + split.reasoning,
    deltas: 0,
    finishReason: choice.finish_reason ?? "stop",
  };
  const usage = readUsage(parsed.data.usage);
  if (usage !== undefined) reply.usage = usage;
  if (parsed.data.model) reply.model = parsed.data.model;
  return reply;
}

function readReasoning(text: z.infer<typeof WireText> | null | undefined): string {
  return text?.reasoning_content ?? text?.reasoning ?? "";
}

function readUsage(usage: z.infer<typeof WireUsage> | null | undefined): LlmUsage | undefined {
  if (!usage) return undefined;
  const result: LlmUsage = {
    promptTokens: usage.prompt_tokens ?? 0,
    completionTokens: usage.completion_tokens ?? 0,
  };
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === "number") result.reasoningTokens = reasoning;
  return result;
}
