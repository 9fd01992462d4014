import { z } from "zod";

const InputPart = z.looseObject({ type: z.string(), text: z.string().optional() });
const InputMessage = z.looseObject({
  type: z.literal("message").optional(),
  role: z.enum(["user", "assistant", "system", "developer"]),
  content: z.union([z.string(), z.array(InputPart)]),
});

/**
 * `POST /v1/responses` as Waddle reads it: `model` names a saved agent; `input` is the person's message (a
 * string, or messages of which the last is the user's); `conversation` (a session id) or
 * `previous_response_id` (a run id) continues a session, else a new session starts. The session holds the
 * conversation, so earlier messages in `input` are not replayed to the agent.
 */
export const ResponsesRequest = z.looseObject({
  model: z.string().min(1).max(200),
  input: z.union([z.string().min(1).max(100_000), z.array(InputMessage).min(1).max(1_000)]),
  conversation: z
    .union([z.string().min(1).max(200), z.looseObject({ id: z.string().min(1).max(200) })])
    .nullable()
    .optional(),
  previous_response_id: z.string().min(1).max(200).nullable().optional(),
  stream: z.boolean().nullable().optional(),
  metadata: z.record(z.string(), z.string().max(512)).nullable().optional(),
});
export type ResponsesRequest = z.infer<typeof ResponsesRequest>;

/** The text of the person's message: `input` itself, or its last message, which must be the user's. */
export function getResponsesQuery(input: ResponsesRequest["input"]): string | undefined {
  if (typeof input === "string") return input.trim() || undefined;
  const last = input.at(-1);
  if (last?.role !== "user") return undefined;
  const text =
    typeof last.content === "string"
      ? last.content
      : last.content
          .filter((part) => part.type === "input_text" || part.type === "text")
          .map((part) => part.text ?? "")
          .join("\n");
  return text.trim() || undefined;
}
