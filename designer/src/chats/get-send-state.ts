import { TERMINAL_RUN_STATUSES } from "@waddle/protocol";
import type { ChatThreadTurn } from "./get-chat-thread.js";

export type SendBlock = "no-agent" | "loading" | "sending" | "running" | "paused" | "closed" | "empty";

export type SendState = { ok: true } | { ok: false; block: SendBlock; reason: string };

/**
 * Whether Send can start the next turn, and if not, the reason the chat shows beside it: the server
 * refuses a turn while one runs or waits (`turn_in_progress`) and on a closed session (`session_closed`).
 * `lastTurn` is the thread's (`getChatThread`): its run's word when that is ahead of the session's, and a
 * turn just sent.
 */
export function getSendState(input: {
  agentId: string | null;
  closed: boolean;
  lastTurn: Pick<ChatThreadTurn, "turn" | "status"> | null;
  sending: boolean;
  loading: boolean;
  query: string;
}): SendState {
  const { lastTurn } = input;
  if (input.agentId === null)
    return { ok: false, block: "no-agent", reason: "Save the agent first: a chat runs a saved version." };
  if (input.loading) return { ok: false, block: "loading", reason: "Loading the chat…" };
  if (input.sending) return { ok: false, block: "sending", reason: "Sending…" };
  if (input.closed)
    return { ok: false, block: "closed", reason: "This chat is closed. Start a new chat to go on." };
  if (lastTurn && !TERMINAL_RUN_STATUSES.has(lastTurn.status)) {
    return lastTurn.status === "paused"
      ? { ok: false, block: "paused", reason: `Turn ${lastTurn.turn} waits for your decision above.` }
      : { ok: false, block: "running", reason: `Turn ${lastTurn.turn} is running: wait for its answer.` };
  }
  if (input.query.trim() === "") return { ok: false, block: "empty", reason: "Type a message to send." };
  return { ok: true };
}
