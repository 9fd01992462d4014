import { RunEvent, RunEventsMessage, RunStatusMessage, SubscribeAck } from "@waddle/protocol";
import type { RunsApi } from "../../api/runs-api.js";
import { createSeqSubscriptions } from "../../socket/seq-subscriptions.js";
import type { SocketConnection } from "../../socket/socket-connection.js";
import { createStopSet } from "../../socket/stop-set.js";
import type { RunSubscriptionHandlers, RunTransport } from "./run-transport.js";

export interface SocketRunTransportOptions {
  /** The designer's one socket connection (shared with the chat sessions). */
  connection: SocketConnection;
  /** Fills gaps in a run's stream from the stored events. */
  api: Pick<RunsApi, "getRunEvents">;
  /**
   * Ask the server for `run_events` batches (one message per server tick, delivered to the listeners in
   * one `onEvents`) instead of one `event` message per event. The app turns it on.
   */
  batch?: boolean;
}

/** The run a raw message is about, read before it is checked (to know whom to tell when it is malformed). */
const getRawRunId = (raw: unknown): unknown => (raw as { runId?: unknown } | null | undefined)?.runId;

/**
 * Runs over the socket connection's subscriptions (`subscribe {runId, afterSeq}`, replayed from the last
 * seq on every reconnect, gaps filled from `GET /api/runs/:id/events?after=`), each `event`, `run_events`
 * batch and `run_status` checked with the protocol's schemas, and the agent's `run_updated` from its watch.
 * With `batch`, a `run_events` message is checked once and handed on as one delivery.
 */
export function createSocketRunTransport(options: SocketRunTransportOptions): RunTransport {
  const { connection } = options;
  const runs = createSeqSubscriptions<RunEvent, RunSubscriptionHandlers>(connection, {
    subscribe: {
      name: "subscribe",
      getPayload: (runId, afterSeq) => ({ runId, afterSeq, ...(options.batch ? { batch: true } : {}) }),
      ack: SubscribeAck,
    },
    unsubscribe: { name: "unsubscribe", getPayload: (runId) => ({ runId }) },
    readAfter: (runId, afterSeq) => options.api.getRunEvents(runId, afterSeq),
    getStreamId: (event) => event.runId,
    resubscribeOnFailure: true,
  });

  const held = createStopSet();
  held.hold(
    connection.on("event", (raw) => {
      const runId = getRawRunId(raw);
      if (typeof runId !== "string" || !runs.isFollowed(runId)) return;
      const parsed = RunEvent.safeParse(raw);
      // A malformed event is dropped; the gap it leaves is filled from the store (or reported from there).
      if (!parsed.success)
        return runs.reportInvalid(runId, `event ${String((raw as { seq?: unknown }).seq)}`);
      runs.receive(runId, [parsed.data]);
    }),
  );
  held.hold(
    connection.on("run_events", (raw) => {
      const runId = Array.isArray(raw) ? getRawRunId(raw[0]) : undefined;
      if (typeof runId !== "string" || !runs.isFollowed(runId)) return;
      const parsed = RunEventsMessage.safeParse(raw);
      // A malformed batch is dropped whole; the gap it leaves is filled from the store, as for one event.
      if (!parsed.success) return runs.reportInvalid(runId, `batch of ${(raw as unknown[]).length} events`);
      runs.receive(runId, parsed.data);
    }),
  );
  held.hold(
    connection.on("run_status", (raw) => {
      const parsed = RunStatusMessage.safeParse(raw);
      if (!parsed.success) return;
      for (const handlers of runs.getHandlers(parsed.data.runId)) handlers.onStatus(parsed.data);
      runs.receiveLastSeq(parsed.data.runId, parsed.data.lastSeq);
    }),
  );

  return {
    subscribe: (runId, afterSeq, handlers) => held.hold(runs.subscribe(runId, afterSeq, handlers)),
    watchAgent: (agentId, onRun) =>
      held.hold(connection.agents.watch(agentId, "run_updated", { onMessage: onRun })),
    onConnection: (listener) => held.hold(connection.onConnection(listener)),
    close() {
      held.stopAll();
      runs.close();
    },
  };
}
