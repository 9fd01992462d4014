import { PUBLIC_MAX_MESSAGE_CHARS } from "@waddle/protocol";
import type { StoredPublicChat } from "../store/public/public-chat-store.js";
import { publicError } from "./public-errors.js";

/**
 * Refuses a visitor's message that the chat does not take (the public routes and AG-UI with a publishable
 * key alike): 413 `payload_too_large` past `PUBLIC_MAX_MESSAGE_CHARS`, 409 `session_full` once the
 * conversation has `maxTurns` turns.
 */
export function checkPublicTurn(options: {
  chat: Pick<StoredPublicChat, "settings">;
  query: string;
  /** The turns the conversation has so far (0 for a new one). */
  turns: number;
}): void {
  const { query, turns } = options;
  if (query.length > PUBLIC_MAX_MESSAGE_CHARS) {
    throw publicError(
      "payload_too_large",
      `Your message has ${query.length} characters: this chat takes at most ${PUBLIC_MAX_MESSAGE_CHARS}. Shorten it and send it again.`,
      { maxMessageChars: PUBLIC_MAX_MESSAGE_CHARS },
    );
  }
  const { maxTurns } = options.chat.settings;
  if (maxTurns !== undefined && turns >= maxTurns) {
    throw publicError(
      "session_full",
      `This conversation has reached its ${maxTurns} messages: start a new conversation to go on.`,
      { maxTurns },
    );
  }
}
