import type { ClientToServerEvents, ServerToClientEvents } from "@waddle/protocol";
import { io } from "socket.io-client";
import { createAgentWatches, type AgentWatches } from "./agent-watches.js";

export type ConnectionState = "connecting" | "connected" | "disconnected";

/** socket.io's `auth` option as a function: read again on every (re)connection. */
export type SocketAuth = (callback: (auth: { token?: string }) => void) => void;

/** The part of a socket.io-client socket the connection uses (a fake implements it in tests). */
export interface SocketLike {
  readonly connected: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
  connect(): unknown;
  disconnect(): unknown;
  io: { on(event: "reconnect_attempt", listener: () => void): unknown };
}

export interface SocketConnectionOptions {
  /** The API token (`WADDLE_TOKEN` or a key), read again on every (re)connection and sent as `auth.token`. */
  getToken: () => string | null;
  /** The server's origin; the page's own by default. */
  url?: string;
  /** On a refused token: resolve true once a new one is stored, to connect again. */
  onUnauthorized?: () => Promise<boolean>;
  /** Makes the socket (tests pass a fake); socket.io-client's `io` by default. */
  createSocket?: (options: { auth: SocketAuth }) => SocketLike;
}

export type ClientMessageName = keyof ClientToServerEvents;
export type ServerMessageName = keyof ServerToClientEvents;

/**
 * The designer's one socket.io connection to the server, shared by everything live (runs, chat sessions,
 * the agent's lists): one connect, auth and reconnect path. What it asked the server for is lost when the
 * connection is: subscribers send it again from `onConnect`, which runs on every (re)connection.
 */
export interface SocketConnection {
  isConnected(): boolean;
  /** Sends when connected, else nothing (it is sent again from `onConnect` once connected). */
  emit(name: ClientMessageName, payload: unknown, ack?: (raw: unknown) => void): void;
  /** Hears a server message, unchecked (the listener checks it with its schema); returns the stop. */
  on(name: ServerMessageName, listener: (raw: unknown) => void): () => void;
  /** Runs on every connection, the first and each reconnection; returns the stop. */
  onConnect(listener: () => void): () => void;
  /** Tells the state now and on every change; returns the stop. */
  onConnection(listener: (state: ConnectionState) => void): () => void;
  /** The agents watched on this connection (`watch_agent`), shared by all who listen to them. */
  readonly agents: AgentWatches;
  close(): void;
}

/** Opens the connection at once; a refused token asks for a new one (`onUnauthorized`) and connects again. */
export function createSocketConnection(options: SocketConnectionOptions): SocketConnection {
  const messageListeners = new Map<ServerMessageName, Set<(raw: unknown) => void>>();
  const connectListeners = new Set<() => void>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = "connecting";
  let closed = false;

  const auth: SocketAuth = (callback) => {
    const token = options.getToken();
    callback(token ? { token } : {});
  };
  const socket =
    options.createSocket?.({ auth }) ??
    (io(options.url ?? "", { auth, transports: ["websocket", "polling"] }) as unknown as SocketLike);

  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    for (const listener of [...stateListeners]) listener(next);
  };

  socket.on("connect", () => {
    setState("connected");
    for (const listener of [...connectListeners]) listener();
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

  const connection: Omit<SocketConnection, "agents"> = {
    isConnected: () => socket.connected,
    emit(name, payload, ack) {
      if (!socket.connected) return;
      if (ack) socket.emit(name, payload, ack);
      else socket.emit(name, payload);
    },
    on(name, listener) {
      let listeners = messageListeners.get(name);
      if (listeners === undefined) {
        const created = new Set<(raw: unknown) => void>();
        messageListeners.set(name, created);
        socket.on(name, (raw: unknown) => {
          for (const each of [...created]) each(raw);
        });
        listeners = created;
      }
      const registered = listeners;
      registered.add(listener);
      return () => registered.delete(listener);
    },
    onConnect(listener) {
      connectListeners.add(listener);
      return () => connectListeners.delete(listener);
    },
    onConnection(listener) {
      stateListeners.add(listener);
      listener(state);
      return () => stateListeners.delete(listener);
    },
    close() {
      closed = true;
      for (const listeners of messageListeners.values()) listeners.clear();
      connectListeners.clear();
      stateListeners.clear();
      socket.disconnect();
    },
  };
  return { ...connection, agents: createAgentWatches(connection) };
}
