import type { StartSessionTurnResponse, StartTurnRequest } from "@waddle/protocol";
import type { Response } from "express";
import { audit } from "../access/audit-trail.js";
import type { SessionTurns } from "../sessions/session-turns.js";

/**
 * Starts a session's turn for a REST request — `POST /api/sessions/:id/turns`, or its alias `POST /api/runs`
 * with `sessionId` — records it in the audit log and answers 202 `{runId, sessionId, turn}`, the run's URL in
 * `Location`. Refusals are the turn service's (409 `turn_in_progress`, `session_closed`).
 */
export async function respondWithTurn(options: {
  turns: SessionTurns;
  request: StartTurnRequest;
  response: Response;
}): Promise<void> {
  const { response } = options;
  const started = await options.turns.start(options.request);
  await audit(response, {
    action: "run.started",
    target: { type: "run", id: started.runId },
    details: { via: "api", agentId: started.agentId, sessionId: started.sessionId, turn: started.turn },
  });
  const body: StartSessionTurnResponse = {
    runId: started.runId,
    sessionId: started.sessionId,
    turn: started.turn,
  };
  response.status(202).location(`/api/runs/${started.runId}`).json(body);
}

/** The session a `POST /api/runs` body names: set, the body is a turn of it (the alias), not a run. */
export function getTurnSessionId(body: unknown): string | undefined {
  const sessionId = (body as { sessionId?: unknown } | undefined)?.sessionId;
  return typeof sessionId === "string" ? sessionId : undefined;
}
