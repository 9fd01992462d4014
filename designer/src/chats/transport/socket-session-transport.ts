import { SessionEvent, SessionSummary, SubscribeSessionAck, WatchAgentAck } from "@waddle/protocol";
import { io } from "socket.io-client";
import type { ApiClient } from "../../api/api-client.js";
import { getErrorMessage } from "../../api/api-error.js";
import type { RunTransportError } from "../../runs/transport/run-transport.js";
import type { SocketLike } from "../../runs/transport/socket-run-transport.js";
import {
  deliverInOrder,
  fillSeqGap,
  reportToChannel,
  type SeqChannel,
  type SeqListener,
} from "../../runs/transport/seq-channel.js";
import type { SessionSubscriptionHandlers, SessionTransport } from "./session-transport.js";

export interface SocketSessionTransportOptions {
  /** Fills gaps in a session's log from the stored events. */
  api: Pick<ApiClient, "getSessionEvents">;
  /** The API token, read again on every (re)connection and sent as `auth.token`. */
  getToken: () => string | null;
  /** The server's origin; the page's own by default. */
  url?: string;
  /** On a refused token: resolve true once a new one is stored, to connect again. */
  onUnauthorized?: () => Promise<boolean>;
  /** Makes the socket (tests pass a fake); socket.io-client's `io`, not connected until first used. */
  createSocket?: (options: { auth: (callback: (auth: { token?: string }) => void) => void }) => SocketLike;
}

type Listener = SeqListener<SessionEvent, SessionSubscriptionHandlers>;

/** A followed session: its log in order (see `SeqChannel`). */
interface SessionChannel extends SeqChannel<SessionEvent, SessionSubscriptionHandlers> {
  sessionId: string;
}

/**
 * The socket.io transport of sessions, on a socket of its own (so that its `watch_agent` never undoes the
 * run list's), connected only once a session is followed or an agent's sessions are watched. Every message
 * is checked with the protocol's schemas; each session keeps the last seq it delivered, drops duplicates,
 * and fills a gap from `GET /api/sessions/:id/events?after=`; on reconnect it subscribes again from there.
 */
export function createSocketSessionTransport(options: SocketSessionTransportOptions): SessionTransport {
  const channels = new Map<string, SessionChannel>();
  const watchers = new Map<string, Set<(session: SessionSummary) => void>>();
  let closed = false;
  let started = false;

  const auth = (callback: (auth: { token?: string }) => void) => {
    const token = options.getToken();
    callback(token ? { token } : {});
  };
  const socket =
    options.createSocket?.({ auth }) ??
    (io(options.url ?? "", {
      auth,
      autoConnect: false,
      transports: ["websocket", "polling"],
    }) as unknown as SocketLike);
  const start = () => {
    if (started || closed) return;
    started = true;
    socket.connect();
  };

  const report = (channel: SessionChannel, error: RunTransportError) => reportToChannel(channel, error);

  const deliver = (channel: SessionChannel, events: readonly SessionEvent[]) => {
    const gapUntil = deliverInOrder(channel, events);
    if (gapUntil !== undefined) void fillGap(channel, gapUntil);
  };

  /** Reads the stored events after lastSeq; if the store has not got them up to `until`, subscribes again. */
  const fillGap = (channel: SessionChannel, until: number) =>
    fillSeqGap(channel, until, {
      fetch: (afterSeq) => options.api.getSessionEvents(channel.sessionId, afterSeq),
      isCurrent: () => channels.get(channel.sessionId) === channel,
      deliver: (events) =>
        deliver(
          channel,
          events.filter((event) => event.sessionId === channel.sessionId),
        ),
      resubscribe: () => sendSubscribe(channel),
      resubscribeOnFailure: false,
    });

  const sendSubscribe = (channel: SessionChannel) => {
    if (!socket.connected) return;
    const message = { sessionId: channel.sessionId, afterSeq: channel.lastSeq };
    socket.emit("subscribe_session", message, (raw: unknown) => {
      if (channels.get(channel.sessionId) !== channel) return;
      const ack = SubscribeSessionAck.safeParse(raw);
      if (!ack.success) return report(channel, invalid("subscribe_session acknowledgement"));
      if (!ack.data.ok) return report(channel, ack.data.error);
      // the replay comes before the ack: anything still missing is fetched
      if (ack.data.lastSeq > channel.lastSeq) void fillGap(channel, ack.data.lastSeq);
    });
  };

  const sendWatch = (agentId: string) => {
    if (!socket.connected) return;
    socket.emit("watch_agent", { agentId }, (raw: unknown) => {
      const ack = WatchAgentAck.safeParse(raw);
      if (ack.success && ack.data.ok) return;
      const error = ack.success && !ack.data.ok ? ack.data.error : invalid("watch_agent acknowledgement");
      console.warn(`Cannot watch the sessions of agent "${agentId}": ${error.message}`);
    });
  };

  socket.on("connect", () => {
    for (const channel of channels.values()) sendSubscribe(channel);
    for (const agentId of watchers.keys()) sendWatch(agentId);
  });
  socket.on("connect_error", (error: Error) => {
    // A refused token ends socket.io's retries: connect again once a new one is stored.
    if (!closed && /unauthorized/i.test(error.message) && options.onUnauthorized) {
      void options.onUnauthorized().then((retry) => {
        if (retry && !closed) socket.connect();
      });
    }
  });
  socket.on("session_event", (raw: unknown) => {
    const sessionId = (raw as { sessionId?: unknown } | null)?.sessionId;
    const channel = typeof sessionId === "string" ? channels.get(sessionId) : undefined;
    if (channel === undefined) return;
    const parsed = SessionEvent.safeParse(raw);
    // A malformed event is dropped; the gap it leaves is filled from the store (or reported from there).
    if (!parsed.success)
      return report(channel, invalid(`session event ${String((raw as { seq?: unknown }).seq)}`));
    deliver(channel, [parsed.data]);
  });
  socket.on("session_updated", (raw: unknown) => {
    const parsed = SessionSummary.safeParse(raw);
    if (!parsed.success) return;
    for (const onSession of [...(watchers.get(parsed.data.agentId) ?? [])]) onSession(parsed.data);
  });

  return {
    subscribeSession(sessionId, afterSeq, handlers) {
      let channel = channels.get(sessionId);
      const listener: Listener = { handlers, held: null };
      if (channel === undefined) {
        channel = { sessionId, lastSeq: afterSeq, listeners: new Set(), ahead: new Map(), filling: false };
        channels.set(sessionId, channel);
        sendSubscribe(channel);
      } else if (afterSeq < channel.lastSeq) {
        // already followed from further on: this listener catches up from the store first
        void catchUp(channel, listener, afterSeq);
      }
      channel.listeners.add(listener);
      const subscribed = channel;
      start();
      return () => {
        subscribed.listeners.delete(listener);
        if (subscribed.listeners.size > 0 || channels.get(sessionId) !== subscribed) return;
        channels.delete(sessionId);
        if (socket.connected) socket.emit("unsubscribe_session", { sessionId });
      };
    },
    watchSessions(agentId, onSession) {
      let set = watchers.get(agentId);
      if (set === undefined) {
        set = new Set();
        watchers.set(agentId, set);
        sendWatch(agentId);
      }
      set.add(onSession);
      const watching = set;
      start();
      return () => {
        watching.delete(onSession);
        if (watching.size > 0 || watchers.get(agentId) !== watching) return;
        watchers.delete(agentId);
        if (socket.connected) socket.emit("unwatch_agent", { agentId });
      };
    },
    close() {
      closed = true;
      channels.clear();
      watchers.clear();
      socket.disconnect();
    },
  };

  /** A later listener: the stored events after its `afterSeq` up to where the channel stood, then what came meanwhile. */
  async function catchUp(channel: SessionChannel, listener: Listener, afterSeq: number): Promise<void> {
    const until = channel.lastSeq;
    listener.held = [];
    let missed: SessionEvent[] = [];
    try {
      const events = await options.api.getSessionEvents(channel.sessionId, afterSeq);
      missed = events.filter((event) => event.seq > afterSeq && event.seq <= until);
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
