import type { SessionEvent, SessionSummary } from "@waddle/protocol";
import type { SessionSubscriptionHandlers, SessionTransport } from "./session-transport.js";

interface FakeSubscription {
  sessionId: string;
  lastSeq: number;
  handlers: SessionSubscriptionHandlers;
}

/**
 * An in-memory SessionTransport for tests that behaves like the server behind the socket one: it stores
 * every event pushed, and a subscription first gets the stored events after its `afterSeq` (on a
 * microtask, as from a network), then live ones, each exactly once and in order.
 */
export class FakeSessionTransport implements SessionTransport {
  /** Every `subscribeSession` call, in order. */
  readonly subscribeCalls: { sessionId: string; afterSeq: number }[] = [];
  private readonly logs = new Map<string, SessionEvent[]>();
  private readonly subscriptions = new Set<FakeSubscription>();
  private readonly watchers = new Map<string, Set<(session: SessionSummary) => void>>();

  subscribeSession(sessionId: string, afterSeq: number, handlers: SessionSubscriptionHandlers): () => void {
    this.subscribeCalls.push({ sessionId, afterSeq });
    const subscription: FakeSubscription = { sessionId, lastSeq: afterSeq, handlers };
    this.subscriptions.add(subscription);
    queueMicrotask(() => this.catchUp(subscription));
    return () => {
      this.subscriptions.delete(subscription);
    };
  }

  watchSessions(agentId: string, onSession: (session: SessionSummary) => void): () => void {
    const set = this.watchers.get(agentId) ?? new Set();
    set.add(onSession);
    this.watchers.set(agentId, set);
    return () => {
      set.delete(onSession);
      if (set.size === 0) this.watchers.delete(agentId);
    };
  }

  close(): void {
    this.subscriptions.clear();
    this.watchers.clear();
  }

  // ---- test controls ----

  /** Stores events (a seq already stored is ignored) and delivers them to the session's subscribers. */
  pushEvents(events: readonly SessionEvent[]): void {
    for (const event of events) {
      const log = this.logs.get(event.sessionId) ?? [];
      if (log.some((stored) => stored.seq === event.seq)) continue;
      log.push(event);
      log.sort((left, right) => left.seq - right.seq);
      this.logs.set(event.sessionId, log);
    }
    for (const subscription of [...this.subscriptions]) this.catchUp(subscription);
  }

  /** A session created or changed: heard by the watchers of its agent. */
  pushSessionUpdated(session: SessionSummary): void {
    for (const onSession of [...(this.watchers.get(session.agentId) ?? [])]) onSession(session);
  }

  /** The stored log of a session (what `GET /api/sessions/:id/events` would answer). */
  getEvents(sessionId: string, after = 0): SessionEvent[] {
    return (this.logs.get(sessionId) ?? []).filter((event) => event.seq > after);
  }

  getSubscriptions(): { sessionId: string; lastSeq: number }[] {
    return [...this.subscriptions].map(({ sessionId, lastSeq }) => ({ sessionId, lastSeq }));
  }

  getWatchedAgents(): string[] {
    return [...this.watchers.keys()];
  }

  private catchUp(subscription: FakeSubscription): void {
    if (!this.subscriptions.has(subscription)) return;
    const fresh: SessionEvent[] = [];
    for (const event of this.logs.get(subscription.sessionId) ?? []) {
      if (event.seq !== subscription.lastSeq + 1) {
        if (event.seq > subscription.lastSeq + 1) break;
        continue;
      }
      fresh.push(event);
      subscription.lastSeq = event.seq;
    }
    if (fresh.length > 0) subscription.handlers.onEvents(fresh);
  }
}
