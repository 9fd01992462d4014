import type { RunEvent, RunRecord, RunStatusMessage } from "@waddle/protocol";
import type { ConnectionState } from "../../socket/socket-connection.js";
import type { TransportError } from "../../socket/transport-error.js";

export interface RunSubscriptionHandlers {
  /** Events of the run in `seq` order, each exactly once, starting after the `afterSeq` subscribed with. */
  onEvents(events: RunEvent[]): void;
  onStatus(message: RunStatusMessage): void;
  onError(error: TransportError): void;
}

/**
 * How run state reaches the designer: a run's events from a given `seq` (then live, surviving reconnects
 * without loss or duplicates), its status, and the runs of an agent as they are created and change.
 * Implementations: `createSocketRunTransport` (over the shared socket connection) and `FakeRunTransport` (in memory, for tests).
 */
export interface RunTransport {
  /** Follows a run from just after `afterSeq`; returns the unsubscribe. */
  subscribe(runId: string, afterSeq: number, handlers: RunSubscriptionHandlers): () => void;
  /** Hears every run of the agent when it is created or changes; returns the unwatch. */
  watchAgent(agentId: string, onRun: (run: RunRecord) => void): () => void;
  /** Tells the connection state now and on every change; returns the stop. */
  onConnection(listener: (state: ConnectionState) => void): () => void;
  close(): void;
}
