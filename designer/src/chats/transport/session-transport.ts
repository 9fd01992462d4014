import type { SessionEvent, SessionSummary } from "@waddle/protocol";
import type { TransportError } from "../../socket/transport-error.js";

export interface SessionSubscriptionHandlers {
  /** Events of the session's log in `seq` order, each exactly once, starting after the `afterSeq` given. */
  onEvents(events: SessionEvent[]): void;
  onError(error: TransportError): void;
}

/**
 * How a session's log reaches the designer: its events from a given `seq`, then live (surviving
 * reconnects without loss or duplicates), and the agent's sessions as they are created and change.
 * Implementations: `createSocketSessionTransport` (over the shared socket connection) and `FakeSessionTransport` (in memory).
 */
export interface SessionTransport {
  /** Follows a session's log from just after `afterSeq`; returns the unsubscribe. */
  subscribeSession(sessionId: string, afterSeq: number, handlers: SessionSubscriptionHandlers): () => void;
  /** Hears every session of the agent when it is created or changes (`session_updated`); returns the unwatch. */
  watchSessions(agentId: string, onSession: (session: SessionSummary) => void): () => void;
  close(): void;
}
