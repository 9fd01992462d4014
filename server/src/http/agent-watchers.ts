import {
  UnwatchAgentMessage,
  WatchAgentMessage,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type WatchAgentAck,
} from "@waddle/protocol";
import type { Server, Socket } from "socket.io";
import type { Logger } from "../shared/logger.js";
import type { WaddleStore } from "../store/waddle-store.js";
import type { RunEventHub } from "../runs/run-event-hub.js";

type WatchSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

/** Agents one socket may watch at once: a page watches one; the bound keeps a client from growing rooms. */
export const MAX_WATCHED_AGENTS = 50;

export const getAgentRoom = (agentId: string) => `agent:${agentId}`;

/**
 * `watch_agent {agentId}` puts a socket in the agent's room; from then on it gets `run_updated` with the
 * whole run (as `GET /api/runs/:id` answers it) whenever a run of that agent is created, changes status or
 * has its outcome saved, whoever started it. A change is announced by the hub after the store has it; the
 * run is re-read from the store, one read at a time per run and coalesced, so that the last `run_updated`
 * of a run is never older than its last change. Returns the handler to call for each new connection.
 */
export function createAgentWatchers(options: {
  io: Server<ClientToServerEvents, ServerToClientEvents>;
  store: WaddleStore;
  hub: RunEventHub;
  logger: Logger;
}): (socket: WatchSocket) => void {
  const { io, store, logger } = options;
  /** The agents each connected socket watches (by socket id): a change read by nobody is not read. */
  const watched = new Map<string, Set<string>>();
  /** Runs being re-read; `again` when a change came during the read. */
  const reading = new Map<string, { again: boolean }>();

  const announce = async (runId: string, state: { again: boolean }) => {
    try {
      do {
        state.again = false;
        const run = await store.getRun(runId);
        // This instance's sockets only: in queue mode every instance hears the change and tells its own.
        if (run) io.local.to(getAgentRoom(run.agentId)).emit("run_updated", run);
      } while (state.again && watched.size > 0);
    } catch (error) {
      logger.warn("run_updated could not read the run", { runId, error: String(error) });
    } finally {
      reading.delete(runId);
    }
  };

  options.hub.onRunChange((runId) => {
    if (watched.size === 0) return;
    const current = reading.get(runId);
    if (current) {
      current.again = true;
      return;
    }
    const state = { again: false };
    reading.set(runId, state);
    void announce(runId, state);
  });

  return (socket) => {
    const agents = new Set<string>();
    socket.on("watch_agent", async (message, ack) => {
      const answer = typeof ack === "function" ? ack : () => undefined;
      const parsed = WatchAgentMessage.safeParse(message);
      if (!parsed.success) {
        answer(failure("validation_failed", "watch_agent needs {agentId: an agent id (a slug)}."));
        return;
      }
      const { agentId } = parsed.data;
      if (!agents.has(agentId) && agents.size >= MAX_WATCHED_AGENTS) {
        answer(
          failure(
            "rate_limited",
            `A connection may watch at most ${MAX_WATCHED_AGENTS} agents: unwatch_agent one first.`,
          ),
        );
        return;
      }
      if (!socket.connected) return;
      try {
        agents.add(agentId);
        watched.set(socket.id, agents);
        await socket.join(getAgentRoom(agentId));
        answer({ ok: true });
      } catch (error) {
        logger.error("watch_agent failed", { agentId, error: String(error) });
        answer(failure("internal", "The server could not watch this agent."));
      }
    });

    socket.on("unwatch_agent", async (message) => {
      const parsed = UnwatchAgentMessage.safeParse(message);
      if (!parsed.success) return;
      agents.delete(parsed.data.agentId);
      if (agents.size === 0) watched.delete(socket.id);
      try {
        await socket.leave(getAgentRoom(parsed.data.agentId));
      } catch (error) {
        logger.warn("unwatch_agent failed", { error: String(error) });
      }
    });

    socket.on("disconnect", () => {
      watched.delete(socket.id);
    });
  };
}

function failure(code: string, message: string): WatchAgentAck {
  return { ok: false, error: { code, message } };
}
