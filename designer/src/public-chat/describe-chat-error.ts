import { ChatApiError } from "./chat-api.js";

/** What the page tells a visitor when something went wrong, and what it offers them to do. */
export interface ChatProblem {
  text: string;
  /** `new-conversation`: this conversation cannot go on; `retry`: sending again may work. */
  action: "new-conversation" | "retry" | null;
}

const seconds = (count: number) => `${count} s`;

/**
 * A failed request in plain words: a visitor should know whether to wait, shorten the message or start
 * again, never see a stack or a status code alone.
 */
export function describeChatError(error: unknown, options: { maxMessageChars?: number } = {}): ChatProblem {
  if (!(error instanceof ChatApiError)) {
    return {
      text: "Could not reach the chat. Check your connection and try again.",
      action: "retry",
    };
  }
  if (error.status === 429) {
    return {
      text:
        error.retryAfterS !== null
          ? `Too many messages, try again in ${seconds(Math.max(1, error.retryAfterS))}.`
          : "Too many messages, try again in a moment.",
      action: "retry",
    };
  }
  if (error.code === "session_full") {
    return {
      text: "This conversation has reached its limit of messages. Start a new conversation to go on.",
      action: "new-conversation",
    };
  }
  if (error.status === 413) {
    return {
      text:
        options.maxMessageChars !== undefined
          ? `Your message is too long: keep it under ${options.maxMessageChars.toLocaleString("en")} characters.`
          : "Your message is too long: shorten it and send it again.",
      action: null,
    };
  }
  if (error.status === 404) {
    return {
      text: "This conversation is no longer available. Start a new conversation.",
      action: "new-conversation",
    };
  }
  if (error.status === 0) return { text: error.message, action: "retry" };
  if (error.status >= 500) {
    return { text: "The chat ran into a problem on its side. Try again in a moment.", action: "retry" };
  }
  return { text: error.message || "The chat refused the message.", action: null };
}
