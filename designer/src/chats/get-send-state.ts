import { TERMINAL_RUN_STATUSES, type SessionRecord } from "@waddle/protocol";
import type { PendingTurn } from "./chat-types.js";

export type SendBlock = "no-agent" | "loading" | "sending" | "running" | "paused" | "closed" | "empty";

export type SendState = { ok: true } | { ok: false; block: SendBlock; reason: string };

/**
 * Whether Send can start the next turn, and if not, the reason the chat shows beside it: the server
 * refuses a turn while one runs or waits (`turn_in_progress`) and on a closed session (`session_closed`).
 */
export function getSendState(input: {
  agentId: string | null;
  record: Pick<SessionRecord, "status" | "turns"> | null;
  pendingTurn: PendingTurn | null;
  sending: boolean;
  loading: boolean;
  query: string;
}): SendState {
  const { record } = input;
  if (input.agentId === null)
    return { ok: false, block: "no-agent", reason: "Save the agent first: a chat runs a saved version." };
  if (input.loading) return { ok: false, block: "loading", reason: "Loading the chat…" };
  if (input.sending) return { ok: false, block: "sending", reason: "Sending…" };
  if (record?.status === "closed")
    return { ok: false, block: "closed", reason: "This chat is closed. Start a new chat to go on." };
  const last = record?.turns.at(-1);
  if (last && !TERMINAL_RUN_STATUSES.has(last.status)) {
    return last.status === "paused"
      ? { ok: false, block: "paused", reason: `Turn ${last.turn} waits for your decision above.` }
      : { ok: false, block: "running", reason: `Turn ${last.turn} is running: wait for its answer.` };
  }
  if (input.pendingTurn && !record?.turns.some((turn) => turn.runId === input.pendingTurn?.runId))
    return { ok: false, block: "running", reason: "The turn is starting: wait for its answer." };
  if (input.query.trim() === "") return { ok: false, block: "empty", reason: "Type a message to send." };
  return { ok: true };
}
