import type { z } from "zod";
import { getErrorMessage } from "../api/api-error.js";
import {
  deliverInOrder,
  fillSeqGap,
  reportToChannel,
  type SeqChannel,
  type SeqHandlers,
  type SeqListener,
} from "./seq-channel.js";
import type { ClientMessageName, SocketConnection } from "./socket-connection.js";
import { createInvalidMessageError, type TransportError } from "./transport-error.js";

/** A subscribe acknowledgement: the stream's last seq (its replay was sent before), or the server's refusal. */
export type SeqAck = { ok: true; lastSeq: number } | { ok: false; error: TransportError };

/** One kind of `seq`-numbered stream followed over the connection (a run's events, a session's log). */
export interface SeqStreamSpec<E extends { seq: number }> {
  /** Asks the server for a stream's events after a seq (replayed, then live), checked with `ack`. */
  subscribe: {
    name: ClientMessageName;
    getPayload(id: string, afterSeq: number): unknown;
    ack: z.ZodType<SeqAck>;
  };
  unsubscribe: { name: ClientMessageName; getPayload(id: string): unknown };
  /** The stored events after a seq (REST): to fill a gap, and to catch a later listener up. */
  readAfter(id: string, afterSeq: number): Promise<E[]>;
  getStreamId(event: E): string;
  /** Subscribe again after a failed read of the store too (runs do; a session's stream reports and waits). */
  resubscribeOnFailure: boolean;
}

/** The streams of one kind that are followed, and what the server sends for them. */
export interface SeqSubscriptions<E extends { seq: number }, H extends SeqHandlers<E>> {
  /** Follows a stream from just after `afterSeq`; one server subscription however many listeners. Returns the stop. */
  subscribe(id: string, afterSeq: number, handlers: H): () => void;
  isFollowed(id: string): boolean;
  /** Events the server sent for a stream (checked): handed on each once, in order; a gap is read from the store. */
  receive(id: string, events: readonly E[]): void;
  /** The server told the stream's last seq: what is missing up to it is read from the store. */
  receiveLastSeq(id: string, lastSeq: number): void;
  /** A message for the stream that failed its check: its listeners are told; the gap it leaves is filled. */
  reportInvalid(id: string, what: string): void;
  /** The handlers of a followed stream's listeners (for messages beside its events, such as a run's status). */
  getHandlers(id: string): H[];
  /** Ends every subscription of this kind (the connection stays open for the others). */
  close(): void;
}

/**
 * Followed streams over the one connection: each keeps the last seq it delivered, drops duplicates, holds
 * events that came ahead of a gap and reads the gap from the store, and on every (re)connection
 * subscribes again from its last seq, so that a reconnect loses nothing and repeats nothing. A listener that
 * joins a stream already followed from further on is caught up from the store first.
 */
export function createSeqSubscriptions<E extends { seq: number }, H extends SeqHandlers<E>>(
  connection: Pick<SocketConnection, "isConnected" | "emit" | "onConnect">,
  spec: SeqStreamSpec<E>,
): SeqSubscriptions<E, H> {
  type Listener = SeqListener<E, H>;
  interface Channel extends SeqChannel<E, H> {
    id: string;
  }
  const channels = new Map<string, Channel>();

  const deliver = (channel: Channel, events: readonly E[]) => {
    const gapUntil = deliverInOrder(channel, events);
    if (gapUntil !== undefined) void fillGap(channel, gapUntil);
  };

  /** Reads the stored events after lastSeq; if the store has not got them up to `until`, subscribes again. */
  const fillGap = (channel: Channel, until: number) =>
    fillSeqGap(channel, until, {
      fetch: (afterSeq) => spec.readAfter(channel.id, afterSeq),
      isCurrent: () => channels.get(channel.id) === channel,
      deliver: (events) =>
        deliver(
          channel,
          events.filter((event) => spec.getStreamId(event) === channel.id),
        ),
      resubscribe: () => sendSubscribe(channel),
      resubscribeOnFailure: spec.resubscribeOnFailure,
    });

  const sendSubscribe = (channel: Channel) => {
    if (!connection.isConnected()) return;
    connection.emit(spec.subscribe.name, spec.subscribe.getPayload(channel.id, channel.lastSeq), (raw) => {
      if (channels.get(channel.id) !== channel) return;
      const ack = spec.subscribe.ack.safeParse(raw);
      if (!ack.success) {
        reportToChannel(channel, createInvalidMessageError(`${spec.subscribe.name} acknowledgement`));
        return;
      }
      if (!ack.data.ok) {
        // A newer subscribe of this socket replaced this one: not an error of the stream.
        if (ack.data.error.code !== "conflict") reportToChannel(channel, ack.data.error);
        return;
      }
      // The replay comes before the ack: anything still missing is read from the store.
      if (ack.data.lastSeq > channel.lastSeq) void fillGap(channel, ack.data.lastSeq);
    });
  };

  const stopResubscribing = connection.onConnect(() => {
    for (const channel of channels.values()) sendSubscribe(channel);
  });

  /** A later listener: the stored events after its `afterSeq` up to where the stream stood, then what came meanwhile. */
  const catchUp = async (channel: Channel, listener: Listener, afterSeq: number): Promise<void> => {
    const until = channel.lastSeq;
    listener.held = [];
    let missed: E[] = [];
    try {
      const events = await spec.readAfter(channel.id, afterSeq);
      missed = events.filter((event) => event.seq > afterSeq && event.seq <= until);
    } catch (error) {
      listener.handlers.onError({ code: "gap_fill_failed", message: getErrorMessage(error) });
    }
    const held = listener.held;
    listener.held = null;
    if (!channel.listeners.has(listener)) return;
    const all = [...missed, ...held];
    if (all.length > 0) listener.handlers.onEvents(all);
  };

  return {
    subscribe(id, afterSeq, handlers) {
      const listener: Listener = { handlers, held: null };
      let channel = channels.get(id);
      if (channel === undefined) {
        channel = { id, lastSeq: afterSeq, listeners: new Set([listener]), ahead: new Map(), filling: false };
        channels.set(id, channel);
        sendSubscribe(channel);
      } else {
        channel.listeners.add(listener);
        // Already followed from further on: this listener catches up from the store first.
        if (afterSeq < channel.lastSeq) void catchUp(channel, listener, afterSeq);
      }
      const subscribed = channel;
      return () => {
        subscribed.listeners.delete(listener);
        if (subscribed.listeners.size > 0 || channels.get(id) !== subscribed) return;
        channels.delete(id);
        connection.emit(spec.unsubscribe.name, spec.unsubscribe.getPayload(id));
      };
    },
    isFollowed: (id) => channels.has(id),
    receive(id, events) {
      const channel = channels.get(id);
      if (channel !== undefined) deliver(channel, events);
    },
    receiveLastSeq(id, lastSeq) {
      const channel = channels.get(id);
      if (channel !== undefined && lastSeq > channel.lastSeq) void fillGap(channel, lastSeq);
    },
    reportInvalid(id, what) {
      const channel = channels.get(id);
      if (channel !== undefined) reportToChannel(channel, createInvalidMessageError(what));
    },
    getHandlers: (id) => [...(channels.get(id)?.listeners ?? [])].map((listener) => listener.handlers),
    close() {
      stopResubscribing();
      for (const id of channels.keys())
        connection.emit(spec.unsubscribe.name, spec.unsubscribe.getPayload(id));
      channels.clear();
    },
  };
}
