import { applySessionEvents, createSessionRecord } from "@waddle/protocol";
import { getSessionContextMeta, getSessionMergedResults, type SessionContext } from "@waddle/planner";
import { getOpenTodos } from "../../runs/get-open-todos.js";
import type { WaddleStore } from "../../store/waddle-store.js";

/**
 * The conversation context a session's turn ran with, rebuilt from the session's log as it stood when the
 * turn started (the log up to its `turn_started`, a compaction written with it included): the earlier turns
 * after the summary, the summary, the merged task results and the todos the turn before left open. The
 * same `contextMeta` the turn was given (`SessionTurns.start`). Undefined when the log has no such turn.
 */
export async function getTurnContextMeta(
  store: WaddleStore,
  options: { sessionId: string; turn: number },
): Promise<Record<string, unknown> | undefined> {
  const session = await store.sessions.get(options.sessionId);
  if (!session) return undefined;
  const events = await store.sessions.listEvents(options.sessionId);
  const start = events.findIndex(
    (event) => event.type === "turn_started" && event.data.turn === options.turn,
  );
  if (start < 0) return undefined;
  const record = applySessionEvents(
    createSessionRecord({
      id: session.id,
      agentId: session.agentId,
      agentVersion: session.agentVersion,
      channel: session.channel,
      createdAt: session.createdAt,
    }),
    events.slice(0, start),
  );
  const last = record.turns.at(-1);
  const context: SessionContext = {
    turns: record.turns
      .filter((turn) => turn.turn > record.compactedThroughTurn)
      .map((turn) => ({ turn: turn.turn, query: turn.query, answer: turn.answer, status: turn.status })),
    ...(record.contextSummary ? { summary: record.contextSummary as SessionContext["summary"] } : {}),
    merged: getSessionMergedResults(record),
    openTodos: last ? await getOpenTodos(store, last.runId) : [],
  };
  return getSessionContextMeta(context);
}
