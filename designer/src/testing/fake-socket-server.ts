import type { RunEvent, RunRecord, RunStatus } from "@waddle/protocol";
import type { SocketLike } from "../runs/transport/socket-run-transport.js";

type Handler = (...args: never[]) => void;
type Auth = (callback: (auth: { token?: string }) => void) => void;

/**
 * The server side of the socket contract, in memory, for the socket transport's tests: `subscribe`
 * replays stored events after `afterSeq`, joins the run's room, sends `run_status`, then acks (as
 * server/src/http/socket-gateway.ts does); `watch_agent` adds the agent's runs. Tests can also send raw
 * messages (duplicates, gaps, malformed ones) and cut the connection.
 */
export class FakeSocketServer {
  readonly logs = new Map<string, RunEvent[]>();
  readonly statuses = new Map<string, RunStatus>();
  /** Every message a client sent: name and payload. */
  readonly received: { name: string; payload: unknown }[] = [];
  /** The auth each connection presented. */
  readonly auths: { token?: string }[] = [];
  /** `GET /api/runs/:id/events?after=` calls, as `runId:after`. */
  readonly restCalls: string[] = [];
  /** When set, the next `connect` is refused with this message (socket.io's middleware error). */
  refuseNext: string | null = null;
  socket: FakeClientSocket | null = null;
  private readonly rooms = new Set<string>();
  private readonly watched = new Set<string>();

  /** The REST side the transport fills gaps from. */
  readonly api = {
    getRunEvents: async (runId: string, after = 0): Promise<RunEvent[]> => {
      this.restCalls.push(`${runId}:${after}`);
      await Promise.resolve();
      return (this.logs.get(runId) ?? []).filter((event) => event.seq > after);
    },
  };

  readonly createSocket = (options: { auth: Auth }): SocketLike => {
    this.socket = new FakeClientSocket(this, options.auth);
    queueMicrotask(() => this.connect());
    return this.socket;
  };

  /** Stores events and sends them to the run's room. */
  publish(events: readonly RunEvent[]): void {
    for (const event of events) {
      const log = this.logs.get(event.runId) ?? [];
      log.push(event);
      this.logs.set(event.runId, log);
      this.statuses.set(event.runId, this.statuses.get(event.runId) ?? "running");
      if (this.rooms.has(event.runId)) this.send("event", event);
    }
  }

  publishStatus(message: { runId: string; status: RunStatus; lastSeq: number }): void {
    this.statuses.set(message.runId, message.status);
    if (this.rooms.has(message.runId)) this.send("run_status", message);
  }

  publishRun(run: RunRecord): void {
    if (this.watched.has(run.agentId)) this.send("run_updated", run);
  }

  /** Sends any message as is (to test validation, duplicates and gaps). */
  send(name: string, payload: unknown): void {
    if (this.socket?.connected) this.socket.receive(name, payload);
  }

  dropConnection(): void {
    if (!this.socket?.connected) return;
    this.rooms.clear();
    this.watched.clear();
    this.socket.connected = false;
    this.socket.receive("disconnect", "transport close");
  }

  restoreConnection(): void {
    this.socket?.receiveManager("reconnect_attempt");
    this.connect();
  }

  connect(): void {
    const socket = this.socket;
    if (socket === null || socket.connected) return;
    socket.auth((auth) => this.auths.push(auth));
    if (this.refuseNext !== null) {
      const message = this.refuseNext;
      this.refuseNext = null;
      socket.receive("connect_error", new Error(message));
      return;
    }
    socket.connected = true;
    socket.receive("connect");
  }

  handle(name: string, payload: unknown, ack: ((answer: unknown) => void) | undefined): void {
    this.received.push({ name, payload });
    const message = payload as { runId?: string; agentId?: string; afterSeq?: number };
    if (name === "subscribe") void this.subscribe(message.runId ?? "", message.afterSeq ?? 0, ack);
    if (name === "unsubscribe") this.rooms.delete(message.runId ?? "");
    if (name === "watch_agent") {
      this.watched.add(message.agentId ?? "");
      ack?.({ ok: true });
    }
    if (name === "unwatch_agent") this.watched.delete(message.agentId ?? "");
  }

  private async subscribe(runId: string, afterSeq: number, ack?: (answer: unknown) => void): Promise<void> {
    await Promise.resolve();
    const status = this.statuses.get(runId);
    if (status === undefined) {
      ack?.({ ok: false, error: { code: "not_found", message: `Run "${runId}" does not exist.` } });
      return;
    }
    const log = this.logs.get(runId) ?? [];
    for (const event of log) if (event.seq > afterSeq) this.send("event", event);
    this.rooms.add(runId);
    const lastSeq = log.at(-1)?.seq ?? 0;
    this.send("run_status", { runId, status, lastSeq });
    ack?.({ ok: true, status, lastSeq });
  }
}

export class FakeClientSocket implements SocketLike {
  connected = false;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly managerHandlers = new Map<string, Set<() => void>>();

  readonly io = {
    on: (event: "reconnect_attempt", listener: () => void) => {
      const set = this.managerHandlers.get(event) ?? new Set();
      set.add(listener);
      this.managerHandlers.set(event, set);
    },
  };

  constructor(
    private readonly server: FakeSocketServer,
    readonly auth: Auth,
  ) {}

  on(event: string, listener: Handler): this {
    const set = this.handlers.get(event) ?? new Set();
    set.add(listener);
    this.handlers.set(event, set);
    return this;
  }

  emit(event: string, ...args: unknown[]): this {
    if (!this.connected) return this;
    const ack = typeof args[1] === "function" ? (args[1] as (answer: unknown) => void) : undefined;
    this.server.handle(event, args[0], ack);
    return this;
  }

  connect(): this {
    this.server.connect();
    return this;
  }

  disconnect(): this {
    this.connected = false;
    return this;
  }

  receive(event: string, ...args: unknown[]): void {
    for (const handler of [...(this.handlers.get(event) ?? [])])
      (handler as (...values: unknown[]) => void)(...args);
  }

  receiveManager(event: string): void {
    for (const handler of [...(this.managerHandlers.get(event) ?? [])]) handler();
  }
}
