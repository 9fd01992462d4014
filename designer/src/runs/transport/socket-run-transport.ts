import {
  RunEvent,
  RunEventsMessage,
  RunRecord,
  RunStatusMessage,
  SubscribeAck,
  WatchAgentAck,
} from "@waddle/protocol";
import { io } from "socket.io-client";
import type { ApiClient } from "../../api/api-client.js";
import { getErrorMessage } from "../../api/api-error.js";
import type {
  ConnectionState,
  RunSubscriptionHandlers,
  RunTransport,
  RunTransportError,
} from "./run-transport.js";
import {
  deliverInOrder,
  fillSeqGap,
  reportToChannel,
  type SeqChannel,
  type SeqListener,
} from "./seq-channel.js";

/** The part of a socket.io-client socket the transport uses (a fake implements it in tests). */
export interface SocketLike {
  readonly connected: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  connect(): unknown;
  disconnect(): unknown;
  io: { on(event: "reconnect_attempt", listener: () => void): unknown };
}

export interface SocketRunTransportOptions {
  /** Fills gaps in a run's stream from the stored events. */
  api: Pick<ApiClient, "getRunEvents">;
  /** The API token (`WADDLE_TOKEN`), read again on every (re)connection and sent as `auth.token`. */
  getToken: () => string | null;
  /** The server's origin; the page's own by default. */
  url?: string;
  /** On a refused token: resolve true once a new one is stored, to connect again. */
  onUnauthorized?: () => Promise<boolean>;
  /**
   * Ask the server for `run_events` batches (one message per server tick, delivered to the listeners in
   * one `onEvents`) instead of one `event` message per event. The app turns it on.
   */
  batch?: boolean;
  /** Makes the socket (tests pass a fake); socket.io-client's `io` by default. */
  createSocket?: (options: { auth: (callback: (auth: { token?: string }) => void) => void }) => SocketLike;
}

type Listener = SeqListener<RunEvent, RunSubscriptionHandlers>;

/** A followed run: its stream in order (see `SeqChannel`). */
interface RunChannel extends SeqChannel<RunEvent, RunSubscriptionHandlers> {
  runId: string;
}

/**
 * The socket.io transport. Every incoming message is checked with the protocol's schemas; each run keeps
 * the last seq it delivered, drops duplicates, and fills a gap (an event beyond lastSeq + 1, or a status
 * or ack telling a later seq) from `GET /api/runs/:id/events?after=lastSeq`; on reconnect it subscribes
 * again from lastSeq and watches its agents again. One server subscription per run, however many listeners.
 * With `batch`, a `run_events` message is checked once and handed on as one delivery.
 */
export function createSocketRunTransport(options: SocketRunTransportOptions): RunTransport {
  const channels = new Map<string, RunChannel>();
  const watchers = new Map<string, Set<(run: RunRecord) => void>>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = "connecting";
  let closed = false;

  const auth = (callback: (auth: { token?: string }) => void) => {
    const token = options.getToken();
    callback(token ? { token } : {});
  };
  const socket =
    options.createSocket?.({ auth }) ??
    (io(options.url ?? "", { auth, transports: ["websocket", "polling"] }) as unknown as SocketLike);

  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    for (const listener of [...connectionListeners]) listener(next);
  };
  const report = (channel: RunChannel, error: RunTransportError) => reportToChannel(channel, error);

  const deliver = (channel: RunChannel, events: RunEvent[]) => {
    const gapUntil = deliverInOrder(channel, events);
    if (gapUntil !== undefined) void fillGap(channel, gapUntil);
  };

  /** Fetches the stored events after lastSeq up to `until`; if the store has not got them, subscribes again. */
  const fillGap = (channel: RunChannel, until: number) =>
    fillSeqGap(channel, until, {
      fetch: (afterSeq) => options.api.getRunEvents(channel.runId, afterSeq),
      isCurrent: () => channels.get(channel.runId) === channel,
      deliver: (events) =>
        deliver(
          channel,
          events.filter((event) => event.runId === channel.runId),
        ),
      resubscribe: () => sendSubscribe(channel),
      resubscribeOnFailure: true,
    });

  const sendSubscribe = (channel: RunChannel) => {
    if (!socket.connected) return;
    const message = {
      runId: channel.runId,
      afterSeq: channel.lastSeq,
      ...(options.batch ? { batch: true } : {}),
    };
    socket.emit("subscribe", message, (raw: unknown) => {
      if (channels.get(channel.runId) !== channel) return;
      const ack = SubscribeAck.safeParse(raw);
      if (!ack.success) return report(channel, invalid("subscribe acknowledgement"));
      if (!ack.data.ok) {
        // A newer subscribe of this socket replaced this one: not an error of the run.
        if (ack.data.error.code !== "conflict") report(channel, ack.data.error);
        return;
      }
      if (ack.data.lastSeq > channel.lastSeq) void fillGap(channel, ack.data.lastSeq);
    });
  };

  const sendWatch = (agentId: string) => {
    if (!socket.connected) return;
    socket.emit("watch_agent", { agentId }, (raw: unknown) => {
      const ack = WatchAgentAck.safeParse(raw);
      if (ack.success && ack.data.ok) return;
      const error = ack.success && !ack.data.ok ? ack.data.error : invalid("watch_agent acknowledgement");
      console.warn(`Cannot watch the runs of agent "${agentId}": ${error.message}`);
    });
  };

  socket.on("connect", () => {
    setState("connected");
    for (const channel of channels.values()) sendSubscribe(channel);
    for (const agentId of watchers.keys()) sendWatch(agentId);
  });
  socket.on("disconnect", () => setState("disconnected"));
  socket.io.on("reconnect_attempt", () => setState("connecting"));
  socket.on("connect_error", (error: Error) => {
    setState("disconnected");
    // A refused token ends socket.io's retries: connect again once a new token is stored.
    if (!closed && /unauthorized/i.test(error.message) && options.onUnauthorized) {
      void options.onUnauthorized().then((retry) => {
        if (retry && !closed) socket.connect();
      });
    }
  });
  socket.on("event", (raw: unknown) => {
    const parsed = RunEvent.safeParse(raw);
    const runId = (raw as { runId?: unknown } | null)?.runId;
    const channel = typeof runId === "string" ? channels.get(runId) : undefined;
    if (channel === undefined) return;
    // A malformed event is dropped; the gap it leaves is filled from the store (or reported from there).
    if (!parsed.success) return report(channel, invalid(`event ${String((raw as { seq?: unknown }).seq)}`));
    deliver(channel, [parsed.data]);
  });
  socket.on("run_events", (raw: unknown) => {
    const parsed = RunEventsMessage.safeParse(raw);
    const runId = (Array.isArray(raw) ? (raw[0] as { runId?: unknown } | undefined) : undefined)?.runId;
    const channel = typeof runId === "string" ? channels.get(runId) : undefined;
    if (channel === undefined) return;
    // A malformed batch is dropped whole; the gap it leaves is filled from the store, as for one event.
    if (!parsed.success) return report(channel, invalid(`batch of ${(raw as unknown[]).length} events`));
    deliver(channel, parsed.data);
  });
  socket.on("run_status", (raw: unknown) => {
    const parsed = RunStatusMessage.safeParse(raw);
    if (!parsed.success) return;
    const channel = channels.get(parsed.data.runId);
    if (channel === undefined) return;
    for (const listener of [...channel.listeners]) listener.handlers.onStatus(parsed.data);
    if (parsed.data.lastSeq > channel.lastSeq) void fillGap(channel, parsed.data.lastSeq);
  });
  socket.on("run_updated", (raw: unknown) => {
    const parsed = RunRecord.safeParse(raw);
    if (!parsed.success) return;
    for (const onRun of [...(watchers.get(parsed.data.agentId) ?? [])]) onRun(parsed.data);
  });

  return {
    subscribe(runId, afterSeq, handlers) {
      let channel = channels.get(runId);
      const listener: Listener = { handlers, held: null };
      if (channel === undefined) {
        channel = {
          runId,
          lastSeq: afterSeq,
          listeners: new Set([listener]),
          ahead: new Map(),
          filling: false,
        };
        channels.set(runId, channel);
        sendSubscribe(channel);
      } else {
        channel.listeners.add(listener);
        // The run is already followed from further on: this listener catches up from the store.
        if (afterSeq < channel.lastSeq) void catchUp(channel, { listener, afterSeq });
      }
      const subscribed = channel;
      return () => {
        subscribed.listeners.delete(listener);
        if (subscribed.listeners.size > 0 || channels.get(runId) !== subscribed) return;
        channels.delete(runId);
        if (socket.connected) socket.emit("unsubscribe", { runId });
      };
    },
    watchAgent(agentId, onRun) {
      let set = watchers.get(agentId);
      if (set === undefined) {
        set = new Set();
        watchers.set(agentId, set);
        sendWatch(agentId);
      }
      set.add(onRun);
      const watching = set;
      return () => {
        watching.delete(onRun);
        if (watching.size > 0 || watchers.get(agentId) !== watching) return;
        watchers.delete(agentId);
        if (socket.connected) socket.emit("unwatch_agent", { agentId });
      };
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      listener(state);
      return () => connectionListeners.delete(listener);
    },
    close() {
      closed = true;
      channels.clear();
      watchers.clear();
      connectionListeners.clear();
      socket.disconnect();
    },
  };

  /** A later listener of a followed run: the stored events up to the run's lastSeq, then what came meanwhile. */
  async function catchUp(
    channel: RunChannel,
    input: { listener: Listener; afterSeq: number },
  ): Promise<void> {
    const { listener } = input;
    const until = channel.lastSeq;
    listener.held = [];
    let missed: RunEvent[] = [];
    try {
      const events = await options.api.getRunEvents(channel.runId, input.afterSeq);
      missed = events.filter((event) => event.seq > input.afterSeq && event.seq <= until);
    } catch (error) {
      listener.handlers.onError({ code: "gap_fill_failed", message: getErrorMessage(error) });
    }
    const held = listener.held;
    listener.held = null;
    if (!channel.listeners.has(listener)) return;
    const all = [...missed, ...held];
    if (all.length > 0) listener.handlers.onEvents(all);
  }
}

const invalid = (what: string): RunTransportError => ({
  code: "invalid_message",
  message: `The server sent a ${what} of an unexpected shape; it was ignored.`,
});
