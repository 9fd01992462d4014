import { z } from "zod";

/** A part of a message's content: text is read, any other kind is refused by `getChatQuery`. */
const ContentPart = z.looseObject({ type: z.string(), text: z.string().optional() });

export const ChatMessage = z.looseObject({
  role: z.enum(["system", "developer", "user", "assistant", "tool", "function"]),
  content: z
    .union([z.string(), z.array(ContentPart)])
    .nullable()
    .optional(),
  name: z.string().optional(),
  tool_calls: z.array(z.looseObject({ function: z.looseObject({ name: z.string() }).optional() })).optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/**
 * `POST /v1/chat/completions` as Waddle reads it: `model` names a saved agent, `messages` hold the chat,
 * `stream` and `stream_options.include_usage` shape the answer. Sampling and tool parameters are accepted
 * and ignored: the agent's own LLM settings and tools apply.
 */
export const ChatCompletionRequest = z.looseObject({
  model: z.string().min(1).max(200),
  messages: z.array(ChatMessage).min(1).max(1_000),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
  n: z.literal(1, "only n = 1 is supported: an agent answers once per run").nullable().optional(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;
