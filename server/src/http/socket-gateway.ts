import type { Server as HttpServer } from "node:http";
import {
  SubscribeMessage,
  UnsubscribeMessage,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type RunEvent,
  type SubscribeAck,
} from "@waddle/protocol";
import { Server, type Socket } from "socket.io";
import { checkToken } from "../access/check-token.js";
import { guardSocketHosts } from "./host-guard.js";
import { isAllowedOrigin } from "./security.js";
import { RunId } from "./validate-request.js";
import type { Logger } from "../shared/logger.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { createAgentWatchers } from "./agent-watchers.js";
import { createSessionFollowers } from "./session-followers.js";
import type { SessionService } from "../sessions/session-service.js";
import type { RunEventHub } from "../runs/run-event-hub.js";
import { RunEventFollower } from "../runs/run-event-follower.js";

type WaddleSocket = Socket<ClientToServerEvents, ServerToClientEvents>;
export type WaddleIo = Server<ClientToServerEvents, ServerToClientEvents>;

const REPLAY_PAGE = 500;

/**
 * A socket following one run: caught up from the store, then live once `live`. A socket that takes
 * `run_events` batches (`batch`) has the events of the current tick waiting in `pending` until the flush.
 */
interface Follow {
  socket: WaddleSocket;
  follower: RunEventFollower;
  /** Replaced by a newer subscribe or an unsubscribe, or the socket went away. */
  cancelled: boolean;
  live: boolean;
  batch: boolean;
  pending: RunEvent[];
}

export const getRunRoom = (runId: string) => `run:${runId}`;

/**
 * socket.io for live runs. `watch_agent {agentId}` sends `run_updated` for each run of the agent as it
 * changes (agent-watchers.ts). `subscribe {runId, afterSeq}` replays the stored events after `afterSeq`, then
 * follows the run live (a `RunEventFollower` per socket and run), with no gap and no duplicate even when a
 * run is emitting during the replay: events published meanwhile wait for that socket and are sent after the
 * replay, minus those it already got. Flush and follow happen in one synchronous step, so nothing falls
 * between. Each follower keeps the last seq it was sent and gets only later ones: a hub that repeats an
 * event (queue mode's sequencer, filling a gap) never sends a socket one twice. Emits reach this instance's
 * sockets only: in queue mode every instance hears every run (scale/cluster-bridge.ts) and serves its own.
 *
 * A socket that subscribes with `batch: true` gets `run_events` instead of `event`: the replay a store page
 * per message, then each tick's live events of the run as one message (flushed on `setImmediate`, so a
 * burst costs the page one message per tick, not one per event). A batch is sent before any later
 * `run_status` of its run and before the subscribe's ack; a resubscribe or unsubscribe drops what was
 * pending, as the new replay resends it.
 */
export function createSocketGateway(options: {
  httpServer: HttpServer;
  store: WaddleStore;
  hub: RunEventHub;
  logger: Logger;
  token?: string;
  corsOrigin?: string;
  /** Told when a socket has every event of a run up to `lastSeq` and follows it live from there. */
  onFollow?: (runId: string, lastSeq: number) => void;
  /** Sessions, for `subscribe_session` and `session_updated`. */
  sessions?: SessionService;
  /** Queue mode: how often a followed session's log is read for other instances' changes. */
  sessionPollMs?: number;
  /** API keys and roles: the caller attaches access/socket-access.ts, which replaces the token check. */
  keyAccess?: boolean;
}): WaddleIo {
  const { store, hub, logger } = options;
  const io: WaddleIo = new Server(options.httpServer, {
    serveClient: false,
    maxHttpBufferSize: 64 * 1024,
    // Browsers send Origin on WebSocket handshakes: a page on another site may not read runs.
    allowRequest: (request, callback) =>
      callback(
        null,
        isAllowedOrigin({
          origin: request.headers.origin,
          host: request.headers.host,
          ...(options.corsOrigin ? { corsOrigin: options.corsOrigin } : {}),
        }),
      ),
    ...(options.corsOrigin ? { cors: { origin: options.corsOrigin, credentials: false } } : {}),
  });
  // Without a token, only requests addressed to a loopback name and this port (DNS rebinding).
  guardSocketHosts({ httpServer: options.httpServer, engine: io.engine, token: options.token });

  io.use((socket, next) => {
    if (!options.token || options.keyAccess) return next();
    const presented = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof presented === "string" && checkToken(options.token, presented)) return next();
    next(new Error("unauthorized: pass the server's WADDLE_TOKEN as auth.token"));
  });

  /** The sockets following each run; each socket's follower keeps the last seq it was sent. */
  const follows = new Map<string, Map<WaddleSocket, Follow>>();
  /** Batch follows with events pending until this tick's flush. */
  const queued = new Set<Follow>();
  let flushScheduled = false;
  const flushFollow = (follow: Follow) => {
    queued.delete(follow);
    if (follow.pending.length === 0 || follow.cancelled) return;
    const batch = follow.pending;
    follow.pending = [];
    follow.socket.emit("run_events", batch);
  };
  const flushAll = () => {
    flushScheduled = false;
    for (const follow of [...queued]) flushFollow(follow);
  };
  const send = (follow: Follow, event: RunEvent) => {
    if (!follow.batch) {
      follow.socket.emit("event", event);
      return;
    }
    follow.pending.push(event);
    queued.add(follow);
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flushAll);
    }
  };
  const unfollow = (socket: WaddleSocket, runId: string) => {
    const sockets = follows.get(runId);
    const follow = sockets?.get(socket);
    if (!follow) return;
    follow.cancelled = true;
    // Not sent: the subscribe that replaces this one replays them from the store.
    follow.pending = [];
    queued.delete(follow);
    follow.follower.stop();
    sockets!.delete(socket);
    if (sockets!.size === 0) follows.delete(runId);
  };

  hub.onStatus((message) => {
    for (const [socket, follow] of follows.get(message.runId) ?? []) {
      if (!follow.live) continue;
      flushFollow(follow);
      socket.emit("run_status", message);
    }
  });
  const watchAgents = createAgentWatchers({ io, store, hub, logger });
  const followSessions = options.sessions
    ? createSessionFollowers({
        io,
        store,
        sessions: options.sessions,
        logger,
        ...(options.sessionPollMs === undefined ? {} : { pollMs: options.sessionPollMs }),
      })
    : undefined;

  io.on("connection", (socket) => {
    watchAgents(socket);
    followSessions?.(socket);
    socket.on("subscribe", async (message, ack) => {
      const answer = typeof ack === "function" ? ack : () => undefined;
      const parsed = SubscribeMessage.safeParse(message);
      if (!parsed.success || !RunId.safeParse(parsed.data.runId).success) {
        answer(
          failure(
            "validation_failed",
            "subscribe needs {runId: a run id, afterSeq: a non-negative integer}.",
          ),
        );
        return;
      }
      const { runId, afterSeq } = parsed.data;
      unfollow(socket, runId);
      // Listening from here: live events that come while the store is read wait, and none is lost.
      const follow: Follow = {
        socket,
        follower: new RunEventFollower({
          hub,
          store,
          runId,
          afterSeq,
          pageSize: REPLAY_PAGE,
          onEvent: (event) => send(follow, event),
          // The replay goes a store page per message.
          onPage: () => flushFollow(follow),
        }),
        cancelled: false,
        live: false,
        batch: parsed.data.batch === true,
        pending: [],
      };
      const sockets = follows.get(runId) ?? new Map<WaddleSocket, Follow>();
      sockets.set(socket, follow);
      follows.set(runId, sockets);
      const drop = () => {
        if (follows.get(runId)?.get(socket) === follow) unfollow(socket, runId);
        else follow.follower.stop();
      };
      try {
        await socket.leave(getRunRoom(runId));
        const run = await store.getRun(runId);
        if (!run) {
          drop();
          answer(failure("not_found", `Run "${runId}" does not exist.`));
          return;
        }
        const caughtUp = await follow.follower.catchUp(() => follow.cancelled || !socket.connected);
        if (!caughtUp) {
          drop();
          answer(failure("conflict", "A newer subscribe or an unsubscribe for this run replaced this one."));
          return;
        }
        // From the end of the catch-up to here nothing awaited: the socket follows live from `cursor`.
        const cursor = follow.follower.lastSeq;
        // The last seq this socket was sent, for the ack: not afterSeq, which may lie beyond the run's end.
        const sent = cursor > afterSeq ? cursor : 0;
        follow.live = true;
        options.onFollow?.(runId, cursor);
        await socket.join(getRunRoom(runId));
        const latest = (await store.getRun(runId)) ?? run;
        const status = { runId, status: latest.status, lastSeq: Math.max(sent, latest.lastSeq ?? 0) };
        // The contract (protocol socket.ts): run_status once on subscribe, after the replay (and what came since).
        flushFollow(follow);
        socket.emit("run_status", status);
        const ack: SubscribeAck = { ok: true, status: status.status, lastSeq: status.lastSeq };
        answer(ack);
      } catch (error) {
        drop();
        logger.error("subscribe failed", { runId, error: String(error) });
        answer(failure("internal", "The server could not replay this run."));
      }
    });

    socket.on("unsubscribe", async (message) => {
      const parsed = UnsubscribeMessage.safeParse(message);
      if (!parsed.success) return;
      unfollow(socket, parsed.data.runId);
      await socket.leave(getRunRoom(parsed.data.runId));
    });

    socket.on("disconnect", () => {
      for (const runId of [...follows.keys()]) unfollow(socket, runId);
    });
  });
  return io;
}

function failure(code: string, message: string): SubscribeAck {
  return { ok: false, error: { code, message } };
}
