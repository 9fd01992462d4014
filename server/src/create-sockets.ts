import type { Server as HttpServer } from "node:http";
import { attachSocketAccess } from "./access/socket-access.js";
import type { Authenticator } from "./access/authenticator.js";
import { createSocketGateway, type WaddleIo } from "./http/socket-gateway.js";
import { attachInboxWatchers } from "./http/inbox-watchers.js";
import type { InboxService } from "./inbox/inbox-service.js";
import type { RunEventHub } from "./runs/run-event-hub.js";
import type { QueueMode } from "./scale/queue-mode.js";
import type { SessionService } from "./sessions/session-service.js";
import type { Logger } from "./shared/logger.js";
import type { WaddleStore } from "./store/waddle-store.js";

/** Queue mode: how often a followed session's log is read for what other instances wrote. */
const SESSION_POLL_MS = 500;

/** Queue mode: the message that tells the other instances a key was revoked. */
const KEY_REVOKED = "waddle:key_revoked";

export interface SocketsOptions {
  httpServer: HttpServer;
  store: WaddleStore;
  hub: RunEventHub;
  sessions: SessionService;
  authenticator: Authenticator;
  logger: Logger;
  token?: string;
  corsOrigin?: string;
  /** Set in queue mode: sockets follow runs and sessions of every instance, revocations reach them all. */
  queueMode?: QueueMode;
  /** The approvals inbox: `watch_inbox` (issue 34). */
  inbox?: InboxService;
}

export interface Sockets {
  io: WaddleIo;
  /** Disconnects a revoked key's sockets here at once, and on every other instance in queue mode. */
  cutKey(keyId: string): void;
}

/**
 * socket.io on the server's port: the gateway (runs, agents, sessions), its access checks by key, and in
 * queue mode the bridge to the other instances (followed runs, sessions read from the log, revoked keys).
 */
export function createSockets(options: SocketsOptions): Sockets {
  const { queueMode, authenticator } = options;
  // Set once socket.io exists: queue mode joins it to the other instances.
  const follow: { onFollow?: (runId: string, lastSeq: number) => void } = {};
  const io = createSocketGateway({
    httpServer: options.httpServer,
    store: options.store,
    hub: options.hub,
    logger: options.logger,
    ...(options.token ? { token: options.token } : {}),
    ...(options.corsOrigin ? { corsOrigin: options.corsOrigin } : {}),
    onFollow: (runId, lastSeq) => follow.onFollow?.(runId, lastSeq),
    sessions: options.sessions,
    // Another instance's session changes reach this one's sockets by reading the log (see session-followers).
    ...(queueMode ? { sessionPollMs: SESSION_POLL_MS } : {}),
    keyAccess: true,
  });
  const socketAccess = attachSocketAccess(io, { authenticator, store: options.store });
  if (options.inbox) {
    const { inbox, hub, logger } = options;
    attachInboxWatchers(io, { inbox, hub, logger, cluster: queueMode !== undefined });
  }
  const cluster = io as unknown as {
    serverSideEmit(event: string, keyId: string): void;
    on(event: string, listener: (keyId: unknown) => void): void;
  };
  if (queueMode) {
    cluster.on(KEY_REVOKED, (keyId) => {
      if (typeof keyId !== "string") return;
      authenticator.invalidate(keyId);
      socketAccess.cutKey(keyId);
    });
    follow.onFollow = queueMode.attach(io as unknown as Parameters<QueueMode["attach"]>[0]).onFollow;
  }
  return {
    io,
    cutKey: (keyId) => {
      socketAccess.cutKey(keyId);
      if (queueMode) cluster.serverSideEmit(KEY_REVOKED, keyId);
    },
  };
}
