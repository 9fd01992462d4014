import { getErrorMessage } from "../api/api-error.js";
import type { TransportError } from "./transport-error.js";

/** What a subscriber of an ordered stream is handed: events in `seq` order, and errors. */
export interface SeqHandlers<E> {
  onEvents(events: E[]): void;
  onError(error: TransportError): void;
}

/** One subscriber; one that joined a stream already followed from further on holds live events until caught up. */
export interface SeqListener<E, H extends SeqHandlers<E> = SeqHandlers<E>> {
  handlers: H;
  held: E[] | null;
}

/**
 * One followed stream of `seq`-numbered events (a run's, a session's log), shared by its subscribers: the
 * last seq delivered (reconnects subscribe from here), the events that came ahead of a gap, and whether the
 * gap is being filled from the store.
 */
export interface SeqChannel<E extends { seq: number }, H extends SeqHandlers<E> = SeqHandlers<E>> {
  lastSeq: number;
  listeners: Set<SeqListener<E, H>>;
  ahead: Map<number, E>;
  filling: boolean;
}

export function reportToChannel<E extends { seq: number }>(
  channel: SeqChannel<E, SeqHandlers<E>>,
  error: TransportError,
): void {
  for (const listener of [...channel.listeners]) listener.handlers.onError(error);
}

/**
 * Hands the listeners the events that continue the stream, each once and in order: a duplicate is dropped,
 * an event beyond lastSeq + 1 waits in `ahead` until the gap closes. Returns the seq up to which the gap
 * must be filled from the store, or undefined when there is none.
 */
export function deliverInOrder<E extends { seq: number }>(
  channel: SeqChannel<E, SeqHandlers<E>>,
  events: readonly E[],
): number | undefined {
  const fresh: E[] = [];
  for (const event of events) {
    if (event.seq <= channel.lastSeq) continue;
    if (event.seq > channel.lastSeq + 1) {
      channel.ahead.set(event.seq, event);
      continue;
    }
    fresh.push(event);
    channel.lastSeq = event.seq;
    for (
      let next = channel.ahead.get(channel.lastSeq + 1);
      next;
      next = channel.ahead.get(channel.lastSeq + 1)
    ) {
      channel.ahead.delete(next.seq);
      fresh.push(next);
      channel.lastSeq = next.seq;
    }
  }
  for (const seq of channel.ahead.keys()) if (seq <= channel.lastSeq) channel.ahead.delete(seq);
  if (fresh.length > 0) {
    for (const listener of [...channel.listeners]) {
      if (listener.held !== null) listener.held.push(...fresh);
      else listener.handlers.onEvents(fresh);
    }
  }
  return channel.ahead.size > 0 ? Math.min(...channel.ahead.keys()) - 1 : undefined;
}

/**
 * Fills a gap up to `until` from the store (`fetch` reads the events after a seq); when the store has not got
 * them yet, subscribes again (`resubscribe`). A channel no longer followed (`isCurrent` false) is left be.
 */
export async function fillSeqGap<E extends { seq: number }>(
  channel: SeqChannel<E, SeqHandlers<E>>,
  until: number,
  io: {
    fetch(afterSeq: number): Promise<E[]>;
    isCurrent(): boolean;
    deliver(events: E[]): void;
    resubscribe(): void;
    /** Subscribe again after a failed read too (runs do; a session's stream reports and waits). */
    resubscribeOnFailure: boolean;
  },
): Promise<void> {
  if (channel.filling || until <= channel.lastSeq) return;
  channel.filling = true;
  try {
    const events = await io.fetch(channel.lastSeq);
    if (!io.isCurrent()) return;
    channel.filling = false;
    io.deliver(events);
    if (channel.lastSeq < until) io.resubscribe();
  } catch (error) {
    channel.filling = false;
    if (!io.isCurrent()) return;
    reportToChannel(channel, { code: "gap_fill_failed", message: getErrorMessage(error) });
    if (io.resubscribeOnFailure) io.resubscribe();
  }
}
