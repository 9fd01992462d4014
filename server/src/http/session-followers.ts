import {
  SubscribeSessionMessage,
  UnsubscribeSessionMessage,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SubscribeSessionAck,
} from "@waddle/protocol";
import type { Server, Socket } from "socket.io";
import type { Logger } from "../shared/logger.js";
import type { SessionChangeNotice, SessionService } from "../sessions/session-service.js";
import { getSessionSummary } from "../store/sessions/session-rows.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { getAgentRoom } from "./agent-watchers.js";

type SessionSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

/** One socket following one session: the last seq it was sent; a read is under way, or one more is due. */
interface SessionFollow {
  socket: SessionSocket;
  sent: number;
  reading: boolean;
  again: boolean;
  stopped: boolean;
}

/**
 * `subscribe_session {sessionId, afterSeq}` sends the session's log after `afterSeq` as `session_event`s,
 * acks, and then sends each later event once, in order: every change notice (this instance's, or another's
 * in queue mode) makes the follower read the store after the last seq it sent, one read at a time per
 * socket, so nothing is skipped and nothing repeats. Sockets watching the session's agent (`watch_agent`)
 * get `session_updated` with its summary. Returns the handler to call for each new connection.
 */
export function createSessionFollowers(options: {
  io: Server<ClientToServerEvents, ServerToClientEvents>;
  store: WaddleStore;
  sessions: SessionService;
  logger: Logger;
  /**
   * Queue mode: also read each followed session's log this often, so that what another instance wrote (a
   * merge decided there, a turn's end it recorded first) reaches this instance's sockets too. One indexed
   * read per followed session and tick; change notices still send this instance's own changes at once.
   */
  pollMs?: number;
}): (socket: SessionSocket) => void {
  const { io, store, sessions, logger } = options;
  const follows = new Map<string, Map<SessionSocket, SessionFollow>>();

  const pump = async (sessionId: string, follow: SessionFollow): Promise<void> => {
    if (follow.reading) {
      follow.again = true;
      return;
    }
    follow.reading = true;
    try {
      do {
        follow.again = false;
        const events = await store.sessions.listEvents(sessionId, { afterSeq: follow.sent });
        if (follow.stopped) return;
        for (const event of events) {
          if (event.seq <= follow.sent) continue;
          follow.sent = event.seq;
          follow.socket.emit("session_event", event);
        }
      } while (follow.again && !follow.stopped);
    } finally {
      follow.reading = false;
    }
  };

  const announce = async (notice: SessionChangeNotice): Promise<void> => {
    for (const follow of follows.get(notice.sessionId)?.values() ?? []) {
      if (follow.sent < notice.lastSeq) await pump(notice.sessionId, follow);
    }
    const room = io.local.to(getAgentRoom(notice.agentId));
    if ((io.sockets.adapter.rooms.get(getAgentRoom(notice.agentId))?.size ?? 0) === 0) return;
    const record = await store.sessions.get(notice.sessionId);
    if (record) room.emit("session_updated", getSessionSummary(record));
  };
  sessions.onChange((notice) => {
    void announce(notice).catch((error: unknown) =>
      logger.warn("session change not sent", { sessionId: notice.sessionId, error: String(error) }),
    );
  });

  if (options.pollMs !== undefined) {
    const timer = setInterval(() => {
      for (const [sessionId, sockets] of follows) {
        for (const follow of sockets.values()) {
          // A failed read (the store restarting) is read again at the next tick.
          void pump(sessionId, follow).catch(() => undefined);
        }
      }
    }, options.pollMs);
    timer.unref();
  }

  const unfollow = (socket: SessionSocket, sessionId: string) => {
    const sockets = follows.get(sessionId);
    const follow = sockets?.get(socket);
    if (!follow) return;
    follow.stopped = true;
    sockets!.delete(socket);
    if (sockets!.size === 0) follows.delete(sessionId);
  };

  return (socket) => {
    socket.on("subscribe_session", async (message, ack) => {
      const answer = typeof ack === "function" ? ack : () => undefined;
      const parsed = SubscribeSessionMessage.safeParse(message);
      if (!parsed.success) {
        answer(
          failure(
            "validation_failed",
            "subscribe_session needs {sessionId: a session id, afterSeq: an integer ≥ 0}.",
          ),
        );
        return;
      }
      const { sessionId, afterSeq } = parsed.data;
      unfollow(socket, sessionId);
      try {
        const record = await store.sessions.get(sessionId);
        if (!record) {
          answer(failure("not_found", `Session "${sessionId}" does not exist.`));
          return;
        }
        // Registered before the first read: a change during the replay is read after it, not lost.
        const follow: SessionFollow = {
          socket,
          sent: afterSeq,
          reading: false,
          again: false,
          stopped: false,
        };
        const sockets = follows.get(sessionId) ?? new Map<SessionSocket, SessionFollow>();
        sockets.set(socket, follow);
        follows.set(sessionId, sockets);
        await pump(sessionId, follow);
        const latest = (await store.sessions.get(sessionId)) ?? record;
        const ack: SubscribeSessionAck = { ok: true, status: latest.status, lastSeq: follow.sent };
        answer(ack);
      } catch (error) {
        unfollow(socket, sessionId);
        logger.error("subscribe_session failed", { sessionId, error: String(error) });
        answer(failure("internal", "The server could not replay this session."));
      }
    });
    socket.on("unsubscribe_session", (message) => {
      const parsed = UnsubscribeSessionMessage.safeParse(message);
      if (parsed.success) unfollow(socket, parsed.data.sessionId);
    });
    socket.on("disconnect", () => {
      for (const sessionId of [...follows.keys()]) unfollow(socket, sessionId);
    });
  };
}

function failure(code: string, message: string): SubscribeSessionAck {
  return { ok: false, error: { code, message } };
}
