import { ApiError } from "../../shared/api-error.js";
import type { ChatMessage } from "./chat-completion-request.js";

/** Bounds of the earlier messages the LLM sees: the newest ones are kept. */
export const CONVERSATION_LIMITS = { messages: 40, messageChars: 4_000, totalChars: 32_000 } as const;
const MAX_QUERY_CHARS = 100_000;

export interface ChatQuery {
  /** The last user message: the run's query, as stored and shown. */
  query: string;
  /** `{conversation: [{role, content}…]}` for the planner's `contextMeta`, when there were earlier messages. */
  contextMeta?: { conversation: { role: string; content: string }[]; omittedMessages?: number };
}

/**
 * Splits a chat into the run's query (the last message, which must be the user's) and the earlier messages,
 * which the LLM sees as context beside the query (the planner's `contextMeta`), newest kept within
 * `CONVERSATION_LIMITS`. System and developer messages are context too: the agent's own prompt rules.
 */
export function getChatQuery(messages: readonly ChatMessage[]): ChatQuery {
  const last = messages.at(-1);
  if (last?.role !== "user") {
    throw invalidMessages(
      'the last message must be the user\'s (role "user"): the agent answers it',
      messages.length - 1,
    );
  }
  const query = getText(last, messages.length - 1).trim();
  if (query.length === 0) throw invalidMessages("the last user message has no text", messages.length - 1);
  if (query.length > MAX_QUERY_CHARS) {
    throw invalidMessages(
      `the last user message is longer than ${MAX_QUERY_CHARS} characters`,
      messages.length - 1,
    );
  }
  const earlier = messages.slice(0, -1).map((message, index) => ({
    role: message.role,
    content: clip(getText(message, index) || getToolCallsText(message), CONVERSATION_LIMITS.messageChars),
  }));
  if (earlier.length === 0) return { query };
  const kept: typeof earlier = [];
  let chars = 0;
  for (const message of earlier.reverse()) {
    if (kept.length === CONVERSATION_LIMITS.messages) break;
    if (chars + message.content.length > CONVERSATION_LIMITS.totalChars) break;
    chars += message.content.length;
    kept.unshift(message);
  }
  const omitted = earlier.length - kept.length;
  return { query, contextMeta: { conversation: kept, ...(omitted > 0 ? { omittedMessages: omitted } : {}) } };
}

/** A message's text: a string, or its text parts joined; any other part kind is refused. */
function getText(message: ChatMessage, index: number): string {
  const { content } = message;
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  return content
    .map((part, partIndex) => {
      if (part.type === "text" && typeof part.text === "string") return part.text;
      throw invalidMessages(
        `content parts of type "${part.type.slice(0, 40)}" are not supported: send text`,
        index,
        `.content[${partIndex}]`,
      );
    })
    .join("\n");
}

function getToolCallsText(message: ChatMessage): string {
  const names = (message.tool_calls ?? []).map((call) => call.function?.name).filter(Boolean);
  return names.length > 0 ? `(called tools: ${names.join(", ")})` : "";
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…[+${text.length - max} chars]`;
}

function invalidMessages(reason: string, index: number, suffix = ""): ApiError {
  const param = `messages[${index}]${suffix}`;
  return new ApiError("validation_failed", `Fix ${param}: ${reason}.`, { param });
}
