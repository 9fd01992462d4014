import { SessionEvent, SubscribeSessionAck } from "@waddle/protocol";
import type { SessionsApi } from "../../api/sessions-api.js";
import { createSeqSubscriptions } from "../../socket/seq-subscriptions.js";
import type { SocketConnection } from "../../socket/socket-connection.js";
import { createStopSet } from "../../socket/stop-set.js";
import type { SessionSubscriptionHandlers, SessionTransport } from "./session-transport.js";

export interface SocketSessionTransportOptions {
  /** The designer's one socket connection (shared with the runs). */
  connection: SocketConnection;
  /** Fills gaps in a session's log from the stored events. */
  api: Pick<SessionsApi, "getSessionEvents">;
}

/**
 * Chat sessions over the socket connection's subscriptions (`subscribe_session {sessionId, afterSeq}`,
 * replayed from the last seq on every reconnect, gaps filled from `GET /api/sessions/:id/events?after=`),
 * each `session_event` checked with the protocol's schema, and the agent's `session_updated` from its watch
 * (one `watch_agent` shared with the run list, so that neither undoes the other's).
 */
export function createSocketSessionTransport(options: SocketSessionTransportOptions): SessionTransport {
  const { connection } = options;
  const sessions = createSeqSubscriptions<SessionEvent, SessionSubscriptionHandlers>(connection, {
    subscribe: {
      name: "subscribe_session",
      getPayload: (sessionId, afterSeq) => ({ sessionId, afterSeq }),
      ack: SubscribeSessionAck,
    },
    unsubscribe: { name: "unsubscribe_session", getPayload: (sessionId) => ({ sessionId }) },
    readAfter: (sessionId, afterSeq) => options.api.getSessionEvents(sessionId, afterSeq),
    getStreamId: (event) => event.sessionId,
    resubscribeOnFailure: false,
  });

  const held = createStopSet();
  held.hold(
    connection.on("session_event", (raw) => {
      const sessionId = (raw as { sessionId?: unknown } | null | undefined)?.sessionId;
      if (typeof sessionId !== "string" || !sessions.isFollowed(sessionId)) return;
      const parsed = SessionEvent.safeParse(raw);
      // A malformed event is dropped; the gap it leaves is filled from the store (or reported from there).
      if (!parsed.success) {
        return sessions.reportInvalid(sessionId, `session event ${String((raw as { seq?: unknown }).seq)}`);
      }
      sessions.receive(sessionId, [parsed.data]);
    }),
  );

  return {
    subscribeSession: (sessionId, afterSeq, handlers) =>
      held.hold(sessions.subscribe(sessionId, afterSeq, handlers)),
    watchSessions: (agentId, onSession) =>
      held.hold(connection.agents.watch(agentId, "session_updated", { onMessage: onSession })),
    close() {
      held.stopAll();
      sessions.close();
    },
  };
}
