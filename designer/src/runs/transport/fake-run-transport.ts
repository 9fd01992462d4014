import type { RunEvent, RunRecord, RunStatusMessage } from "@waddle/protocol";
import type { ConnectionState } from "../../socket/socket-connection.js";
import type { TransportError } from "../../socket/transport-error.js";
import type { RunSubscriptionHandlers, RunTransport } from "./run-transport.js";

interface FakeSubscription {
  runId: string;
  lastSeq: number;
  handlers: RunSubscriptionHandlers;
}

/**
 * An in-memory RunTransport for tests and demos that behaves like the server behind the socket one: it
 * stores every event pushed, a subscription first gets the stored events after its `afterSeq` (on a
 * microtask, as from a network) and then live ones, each exactly once; while disconnected nothing is
 * delivered, and on reconnect each subscription catches up from its last seq.
 */
export class FakeRunTransport implements RunTransport {
  /** Every `subscribe` call, in order. */
  readonly subscribeCalls: { runId: string; afterSeq: number }[] = [];
  closed = false;
  private connection: ConnectionState;
  private readonly logs = new Map<string, RunEvent[]>();
  private readonly subscriptions = new Set<FakeSubscription>();
  private readonly watchers = new Map<string, Set<(run: RunRecord) => void>>();
  private readonly connectionListeners = new Set<(state: ConnectionState) => void>();
  private readonly subscribeErrors = new Map<string, TransportError>();

  constructor(options: { connection?: ConnectionState } = {}) {
    this.connection = options.connection ?? "connected";
  }

  subscribe(runId: string, afterSeq: number, handlers: RunSubscriptionHandlers): () => void {
    this.subscribeCalls.push({ runId, afterSeq });
    const subscription: FakeSubscription = { runId, lastSeq: afterSeq, handlers };
    const error = this.subscribeErrors.get(runId);
    if (error !== undefined) {
      queueMicrotask(() => handlers.onError(error));
      return () => undefined;
    }
    this.subscriptions.add(subscription);
    queueMicrotask(() => this.catchUp(subscription));
    return () => {
      this.subscriptions.delete(subscription);
    };
  }

  watchAgent(agentId: string, onRun: (run: RunRecord) => void): () => void {
    const set = this.watchers.get(agentId) ?? new Set();
    set.add(onRun);
    this.watchers.set(agentId, set);
    return () => {
      set.delete(onRun);
      if (set.size === 0) this.watchers.delete(agentId);
    };
  }

  onConnection(listener: (state: ConnectionState) => void): () => void {
    this.connectionListeners.add(listener);
    listener(this.connection);
    return () => this.connectionListeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    this.subscriptions.clear();
    this.watchers.clear();
    this.connectionListeners.clear();
  }

  // ---- test controls ----

  /** Stores events (those of a seq already stored are ignored) and delivers them live when connected. */
  pushEvents(events: readonly RunEvent[]): void {
    for (const event of events) {
      const log = this.logs.get(event.runId) ?? [];
      if (log.some((stored) => stored.seq === event.seq)) continue;
      log.push(event);
      log.sort((left, right) => left.seq - right.seq);
      this.logs.set(event.runId, log);
    }
    if (this.connection !== "connected") return;
    for (const subscription of [...this.subscriptions]) this.catchUp(subscription);
  }

  pushStatus(message: RunStatusMessage): void {
    if (this.connection !== "connected") return;
    for (const subscription of [...this.subscriptions]) {
      if (subscription.runId === message.runId) subscription.handlers.onStatus(message);
    }
  }

  /** A run created or changed: heard by the watchers of its agent. */
  pushRunUpdated(run: RunRecord): void {
    if (this.connection !== "connected") return;
    for (const onRun of [...(this.watchers.get(run.agentId) ?? [])]) onRun(run);
  }

  /** The next subscriptions to this run fail with this error (until cleared with null). */
  failSubscribe(runId: string, error: TransportError | null): void {
    if (error === null) this.subscribeErrors.delete(runId);
    else this.subscribeErrors.set(runId, error);
  }

  disconnect(): void {
    this.setConnection("disconnected");
  }

  /** Connects again: every subscription gets what it missed meanwhile. */
  reconnect(): void {
    this.setConnection("connecting");
    this.setConnection("connected");
    for (const subscription of [...this.subscriptions]) this.catchUp(subscription);
  }

  /** The stored events of a run (what `GET /api/runs/:id/events` would answer). */
  getEvents(runId: string, after = 0): RunEvent[] {
    return (this.logs.get(runId) ?? []).filter((event) => event.seq > after);
  }

  /** Current subscriptions: run and the last seq each has been sent. */
  getSubscriptions(): { runId: string; lastSeq: number }[] {
    return [...this.subscriptions].map(({ runId, lastSeq }) => ({ runId, lastSeq }));
  }

  getWatchedAgents(): string[] {
    return [...this.watchers.keys()];
  }

  private setConnection(state: ConnectionState): void {
    if (state === this.connection) return;
    this.connection = state;
    for (const listener of [...this.connectionListeners]) listener(state);
  }

  private catchUp(subscription: FakeSubscription): void {
    if (this.connection !== "connected" || !this.subscriptions.has(subscription)) return;
    const log = this.logs.get(subscription.runId) ?? [];
    const fresh: RunEvent[] = [];
    for (const event of log) {
      // Only a contiguous run of events: a stored gap waits, as the socket transport fills gaps first.
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
