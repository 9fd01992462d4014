import type { Server as HttpServer } from "node:http";
import {
  SubscribeMessage,
  UnsubscribeMessage,
  type ClientToServerEvents,
  type RunEvent,
  type ServerToClientEvents,
  type SubscribeAck,
} from "@waddle/protocol";
import { Server, type Socket } from "socket.io";
import { checkToken } from "./check-token.js";
import { guardSocketHosts } from "./host-guard.js";
import { isAllowedOrigin } from "./security.js";
import { RunId } from "./validate-request.js";
import type { Logger } from "../shared/logger.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { createAgentWatchers } from "./agent-watchers.js";
import type { RunEventHub } from "../runs/run-event-hub.js";

type WaddleSocket = Socket<ClientToServerEvents, ServerToClientEvents>;
export type WaddleIo = Server<ClientToServerEvents, ServerToClientEvents>;

const REPLAY_PAGE = 500;

/**
 * One socket following one run live: the last seq it was sent (or queued), and whether it takes `run_events`
 * batches; a batch follower's events of the current tick wait in `pending` until the tick's flush.
 */
interface Follower {
  socket: WaddleSocket;
  sent: number;
  batch: boolean;
  pending: RunEvent[];
}

/** A socket catching up on one run: live events wait in `buffer` until the replay from the store is sent. */
interface Replay {
  socket: WaddleSocket;
  runId: string;
  buffer: RunEvent[];
  cancelled: boolean;
}

export const getRunRoom = (runId: string) => `run:${runId}`;

/**
 * socket.io for live runs. `watch_agent {agentId}` sends `run_updated` for each run of the agent as it
 * changes (agent-watchers.ts). `subscribe {runId, afterSeq}` replays the stored events after `afterSeq`, then
 * follows the run live, with no gap and no duplicate even when a run is emitting during the replay: events
 * published meanwhile are buffered for that socket and sent after the replay, minus those it already got
 * (seq ≤ last replayed). Flush and follow happen in one synchronous step, so nothing falls between. Each
 * follower keeps the last seq it was sent and gets only later ones: a hub that repeats an event (queue mode's
 * sequencer, filling a gap) never sends a socket one twice. Emits reach this instance's sockets only: in
 * queue mode every instance hears every run (scale/cluster-bridge.ts) and serves its own sockets.
 *
 * A socket that subscribes with `batch: true` gets `run_events` instead of `event`: the replay a page per
 * message, then each tick's live events of the run as one message (flushed on `setImmediate`, so a burst
 * costs the page one message per tick, not one per event). A batch is sent before any later `run_status`
 * of its run; a resubscribe or unsubscribe drops what was pending, as the new replay resends it.
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
  const replays = new Map<string, Set<Replay>>();

  io.use((socket, next) => {
    if (!options.token) return next();
    const presented = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof presented === "string" && checkToken(options.token, presented)) return next();
    next(new Error("unauthorized: pass the server's WADDLE_TOKEN as auth.token"));
  });

  /** The sockets following each run live. */
  const followers = new Map<string, Map<WaddleSocket, Follower>>();
  /** Batch followers with events pending until this tick's flush. */
  const queued = new Set<Follower>();
  let flushScheduled = false;
  const flushFollower = (follower: Follower) => {
    queued.delete(follower);
    if (follower.pending.length === 0) return;
    const batch = follower.pending;
    follower.pending = [];
    follower.socket.emit("run_events", batch);
  };
  const flushAll = () => {
    flushScheduled = false;
    for (const follower of [...queued]) flushFollower(follower);
  };
  const unfollow = (socket: WaddleSocket, runId: string) => {
    const sockets = followers.get(runId);
    const follower = sockets?.get(socket);
    if (follower) {
      // Not sent: the subscribe that replaces this one replays them from the store.
      follower.pending = [];
      queued.delete(follower);
    }
    sockets?.delete(socket);
    if (sockets?.size === 0) followers.delete(runId);
  };

  hub.onEvent((event) => {
    const catchingUp = replays.get(event.runId);
    if (catchingUp) for (const replay of catchingUp) replay.buffer.push(event);
    const sockets = followers.get(event.runId);
    if (!sockets) return;
    for (const follower of sockets.values()) {
      if (event.seq <= follower.sent) continue;
      follower.sent = event.seq;
      if (!follower.batch) {
        follower.socket.emit("event", event);
        continue;
      }
      follower.pending.push(event);
      queued.add(follower);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(flushAll);
      }
    }
  });
  hub.onStatus((message) => {
    for (const follower of followers.get(message.runId)?.values() ?? []) {
      flushFollower(follower);
      follower.socket.emit("run_status", message);
    }
  });
  const watchAgents = createAgentWatchers({ io, store, hub, logger });

  const stopReplays = (socket: WaddleSocket, runId: string) => {
    for (const replay of replays.get(runId) ?? []) if (replay.socket === socket) replay.cancelled = true;
  };

  io.on("connection", (socket) => {
    watchAgents(socket);
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
      const batch = parsed.data.batch === true;
      const send = (events: RunEvent[]) => {
        if (events.length === 0) return;
        if (batch) socket.emit("run_events", events);
        else for (const event of events) socket.emit("event", event);
      };
      stopReplays(socket, runId);
      unfollow(socket, runId);
      await socket.leave(getRunRoom(runId));
      const replay: Replay = { socket, runId, buffer: [], cancelled: false };
      const active = replays.get(runId) ?? new Set<Replay>();
      active.add(replay);
      replays.set(runId, active);
      try {
        const run = await store.getRun(runId);
        if (!run) {
          answer(failure("not_found", `Run "${runId}" does not exist.`));
          return;
        }
        let cursor = afterSeq;
        // The last seq this socket was sent, for the ack: not afterSeq, which may lie beyond the run's end.
        let sent = 0;
        for (;;) {
          const page = await store.listEvents(runId, { afterSeq: cursor, limit: REPLAY_PAGE });
          if (replay.cancelled || !socket.connected) {
            answer(
              failure("conflict", "A newer subscribe or an unsubscribe for this run replaced this one."),
            );
            return;
          }
          send(page);
          cursor = page.at(-1)?.seq ?? cursor;
          sent = page.at(-1)?.seq ?? sent;
          if (page.length < REPLAY_PAGE) break;
        }
        // From here to following, nothing awaits: no live event can slip between the buffer and the follow.
        const missed: RunEvent[] = [];
        for (const event of replay.buffer) {
          if (event.seq <= cursor) continue;
          missed.push(event);
          cursor = event.seq;
          sent = event.seq;
        }
        send(missed);
        const follower: Follower = { socket, sent: cursor, batch, pending: [] };
        const sockets = followers.get(runId) ?? new Map<WaddleSocket, Follower>();
        sockets.set(socket, follower);
        followers.set(runId, sockets);
        options.onFollow?.(runId, cursor);
        await socket.join(getRunRoom(runId));
        const latest = (await store.getRun(runId)) ?? run;
        const status = { runId, status: latest.status, lastSeq: Math.max(sent, latest.lastSeq ?? 0) };
        // The contract (protocol socket.ts): run_status once on subscribe, after the replay (and what came since).
        flushFollower(follower);
        socket.emit("run_status", status);
        const ack: SubscribeAck = { ok: true, status: status.status, lastSeq: status.lastSeq };
        answer(ack);
      } catch (error) {
        logger.error("subscribe failed", { runId, error: String(error) });
        answer(failure("internal", "The server could not replay this run."));
      } finally {
        active.delete(replay);
        if (active.size === 0) replays.delete(runId);
      }
    });

    socket.on("unsubscribe", async (message) => {
      const parsed = UnsubscribeMessage.safeParse(message);
      if (!parsed.success) return;
      stopReplays(socket, parsed.data.runId);
      unfollow(socket, parsed.data.runId);
      await socket.leave(getRunRoom(parsed.data.runId));
    });

    socket.on("disconnect", () => {
      for (const runId of replays.keys()) stopReplays(socket, runId);
      for (const runId of [...followers.keys()]) unfollow(socket, runId);
    });
  });
  return io;
}

function failure(code: string, message: string): SubscribeAck {
  return { ok: false, error: { code, message } };
}
