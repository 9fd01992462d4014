import {
  CreateSessionResponse,
  SessionEvent,
  SessionRecord,
  SessionsListResponse,
  SessionStatus,
  StartSessionTurnResponse,
  type CreateSessionRequest,
  type MergeDecisionRequest,
  type SessionSummary,
  type StartSessionTurnRequest,
} from "@waddle/protocol";
import { z } from "zod";
import { route, withQuery, type ApiRequester } from "./api-requester.js";

const SessionEventsResponse = z.object({ events: z.array(SessionEvent) });
/** `POST /api/sessions/:id/merges/:mergeId` answers 202 with the session's status after the decision. */
const MergeDecisionResponse = z.object({
  sessionId: z.string(),
  mergeId: z.string(),
  decision: z.string(),
  status: SessionStatus,
});
export type MergeDecisionResponse = z.infer<typeof MergeDecisionResponse>;

/** `/api/sessions`: chat sessions (conversations of turns), their logs, turns and merges. */
export function createSessionsApi(http: ApiRequester) {
  return {
    /** Opens a session (a chat) with the agent, its version pinned now unless `agentVersion` names one. */
    async createSession(body: CreateSessionRequest): Promise<CreateSessionResponse> {
      return http.json("POST", "/api/sessions", CreateSessionResponse, body);
    },

    /** Sessions, newest activity first. */
    async listSessions(options: { agentId?: string; limit?: number } = {}): Promise<SessionSummary[]> {
      const query = new URLSearchParams();
      if (options.agentId !== undefined) query.set("agentId", options.agentId);
      if (options.limit !== undefined) query.set("limit", String(options.limit));
      return (await http.json("GET", withQuery("/api/sessions", query), SessionsListResponse)).sessions;
    },

    /** The session record: the fold of its log (turns, tasks, pending merges, usage). */
    async getSession(id: string): Promise<SessionRecord> {
      return http.json("GET", route`/api/sessions/${id}`, SessionRecord);
    },

    /** Closes the session: its tasks are cancelled, its runs kept. */
    async closeSession(id: string): Promise<SessionRecord> {
      return http.json("DELETE", route`/api/sessions/${id}`, SessionRecord);
    },

    /** The session's own log after `after`, in `seq` order. */
    async getSessionEvents(id: string, after = 0): Promise<SessionEvent[]> {
      return (await http.json("GET", route`/api/sessions/${id}/events?after=${after}`, SessionEventsResponse))
        .events;
    },

    /**
     * Starts the session's next turn (a run) on its pinned version (`POST /api/sessions/:id/turns`, 202).
     * While a turn runs or waits, or once the session is closed, it throws ApiError 409 whose
     * `details.reason` is `turn_in_progress` or `session_closed`.
     */
    async startTurn(sessionId: string, body: StartSessionTurnRequest): Promise<StartSessionTurnResponse> {
      return http.json("POST", route`/api/sessions/${sessionId}/turns`, StartSessionTurnResponse, body);
    },

    /** Applies or rejects a pending merge; a merge already decided throws 409 `already_answered`. */
    async decideMerge(
      sessionId: string,
      mergeId: string,
      body: MergeDecisionRequest,
    ): Promise<MergeDecisionResponse> {
      return http.json(
        "POST",
        route`/api/sessions/${sessionId}/merges/${mergeId}`,
        MergeDecisionResponse,
        body,
      );
    },
  };
}

export type SessionsApi = ReturnType<typeof createSessionsApi>;
