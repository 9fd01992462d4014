import type {
  RunEvent,
  RunRecord,
  RunStatus,
  SessionEvent,
  SessionSummary,
  TestRunRecord,
} from "@waddle/protocol";
import {
  createSocketConnection,
  type SocketAuth as Auth,
  type SocketConnection,
  type SocketConnectionOptions,
  type SocketLike,
} from "../socket/socket-connection.js";

type Handler = (...args: never[]) => void;

/**
 * The server side of the socket contract, in memory, for the socket connection's and transports' tests:
 * `subscribe` replays stored events after `afterSeq`, joins the run's room, sends `run_status`, then acks
 * (as server/src/http/socket-gateway.ts does); `subscribe_session` replays the session's log as
 * `session_event`s, then acks with its last seq (as server/src/http/session-followers.ts does);
 * `watch_agent` adds the agent's `run_updated`, `session_updated` and `test_run_updated`. A subscribe with
 * `batch: true` gets `run_events`: the replay as one message, and each `publish` call's events of the run
 * as one message (a server tick). Tests can also send raw messages (duplicates, gaps, malformed ones) and
 * cut the connection.
 */
export class FakeSocketServer {
  readonly logs = new Map<string, RunEvent[]>();
  readonly statuses = new Map<string, RunStatus>();
  readonly sessionLogs = new Map<string, SessionEvent[]>();
  /** Every message a client sent: name and payload. */
  readonly received: { name: string; payload: unknown }[] = [];
  /** The auth each connection presented. */
  readonly auths: { token?: string }[] = [];
  /** `GET /api/runs/:id/events?after=` and `GET /api/sessions/:id/events?after=` calls, as `id:after`. */
  readonly restCalls: string[] = [];
  /** When set, the next `connect` is refused with this message (socket.io's middleware error). */
  refuseNext: string | null = null;
  /** When set, every `watch_agent` is refused with this error. */
  refuseWatch: { code: string; message: string } | null = null;
  socket: FakeClientSocket | null = null;
  /** The runs this socket follows, and whether each takes batches. */
  private readonly rooms = new Map<string, { batch: boolean }>();
  private readonly sessionRooms = new Set<string>();
  private readonly watched = new Set<string>();

  /** The REST side the transport fills gaps from. */
  readonly api = {
    getRunEvents: async (runId: string, after = 0): Promise<RunEvent[]> => {
      this.restCalls.push(`${runId}:${after}`);
      await Promise.resolve();
      return (this.logs.get(runId) ?? []).filter((event) => event.seq > after);
    },
    getSessionEvents: async (sessionId: string, after = 0): Promise<SessionEvent[]> => {
      this.restCalls.push(`${sessionId}:${after}`);
      await Promise.resolve();
      return (this.sessionLogs.get(sessionId) ?? []).filter((event) => event.seq > after);
    },
  };

  readonly createSocket = (options: { auth: Auth }): SocketLike => {
    this.socket = new FakeClientSocket(this, options.auth);
    queueMicrotask(() => this.connect());
    return this.socket;
  };

  /** The app's socket connection, over a fake socket to this server (it connects on the next microtask). */
  createConnection(options: Partial<SocketConnectionOptions> = {}): SocketConnection {
    return createSocketConnection({ getToken: () => null, ...options, createSocket: this.createSocket });
  }

  /** Stores events and sends them to the run's room: one message each, or one batch per run. */
  publish(events: readonly RunEvent[]): void {
    const batches = new Map<string, RunEvent[]>();
    for (const event of events) {
      const log = this.logs.get(event.runId) ?? [];
      log.push(event);
      this.logs.set(event.runId, log);
      this.statuses.set(event.runId, this.statuses.get(event.runId) ?? "running");
      const room = this.rooms.get(event.runId);
      if (room?.batch) batches.set(event.runId, [...(batches.get(event.runId) ?? []), event]);
      else if (room) this.send("event", event);
    }
    for (const batch of batches.values()) this.send("run_events", batch);
  }

  publishStatus(message: { runId: string; status: RunStatus; lastSeq: number }): void {
    this.statuses.set(message.runId, message.status);
    if (this.rooms.has(message.runId)) this.send("run_status", message);
  }

  publishRun(run: RunRecord): void {
    if (this.watched.has(run.agentId)) this.send("run_updated", run);
  }

  /** Stores session events and sends them to the sockets that follow their session. */
  publishSessionEvents(events: readonly SessionEvent[]): void {
    for (const event of events) {
      this.sessionLogs.set(event.sessionId, [...(this.sessionLogs.get(event.sessionId) ?? []), event]);
      if (this.sessionRooms.has(event.sessionId)) this.send("session_event", event);
    }
  }

  publishSession(session: SessionSummary): void {
    if (this.watched.has(session.agentId)) this.send("session_updated", session);
  }

  publishTestRun(testRun: TestRunRecord): void {
    if (this.watched.has(testRun.agentId)) this.send("test_run_updated", testRun);
  }

  /** Sends any message as is (to test validation, duplicates and gaps). */
  send(name: string, payload: unknown): void {
    if (this.socket?.connected) this.socket.receive(name, payload);
  }

  dropConnection(): void {
    if (!this.socket?.connected) return;
    this.rooms.clear();
    this.sessionRooms.clear();
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
    const message = payload as {
      runId?: string;
      sessionId?: string;
      agentId?: string;
      afterSeq?: number;
      batch?: boolean;
    };
    if (name === "subscribe") void this.subscribe(message, ack);
    if (name === "unsubscribe") this.rooms.delete(message.runId ?? "");
    if (name === "subscribe_session") void this.subscribeSession(message, ack);
    if (name === "unsubscribe_session") this.sessionRooms.delete(message.sessionId ?? "");
    if (name === "watch_agent") {
      if (this.refuseWatch) return ack?.({ ok: false, error: this.refuseWatch });
      this.watched.add(message.agentId ?? "");
      ack?.({ ok: true });
    }
    if (name === "unwatch_agent") this.watched.delete(message.agentId ?? "");
  }

  private async subscribeSession(
    message: { sessionId?: string; afterSeq?: number },
    ack?: (answer: unknown) => void,
  ): Promise<void> {
    const { sessionId = "", afterSeq = 0 } = message;
    await Promise.resolve();
    const log = this.sessionLogs.get(sessionId);
    if (log === undefined) {
      ack?.({ ok: false, error: { code: "not_found", message: `Session "${sessionId}" does not exist.` } });
      return;
    }
    for (const event of log) if (event.seq > afterSeq) this.send("session_event", event);
    this.sessionRooms.add(sessionId);
    ack?.({ ok: true, status: "idle", lastSeq: log.at(-1)?.seq ?? 0 });
  }

  private async subscribe(
    message: { runId?: string; afterSeq?: number; batch?: boolean },
    ack?: (answer: unknown) => void,
  ): Promise<void> {
    const { runId = "", afterSeq = 0, batch = false } = message;
    await Promise.resolve();
    const status = this.statuses.get(runId);
    if (status === undefined) {
      ack?.({ ok: false, error: { code: "not_found", message: `Run "${runId}" does not exist.` } });
      return;
    }
    const log = this.logs.get(runId) ?? [];
    const missed = log.filter((event) => event.seq > afterSeq);
    if (batch && missed.length > 0) this.send("run_events", missed);
    else if (!batch) for (const event of missed) this.send("event", event);
    this.rooms.set(runId, { batch });
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
