import {
  RunRecord,
  SessionSummary,
  TestRunRecord,
  WatchAgentAck,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from "@waddle/protocol";
import type { z } from "zod";
import { createInvalidMessageError } from "./transport-error.js";

/** What the server sends to the sockets watching an agent, each with the schema it is checked with. */
const AGENT_MESSAGES = {
  run_updated: RunRecord,
  session_updated: SessionSummary,
  test_run_updated: TestRunRecord,
} as const satisfies Partial<Record<keyof ServerToClientEvents, z.ZodType<{ agentId: string }>>>;

export type AgentMessageName = keyof typeof AGENT_MESSAGES;
export type AgentMessage<N extends AgentMessageName> = z.infer<(typeof AGENT_MESSAGES)[N]>;

export interface AgentWatchListener<N extends AgentMessageName> {
  /** One message of the watched agent, checked with its schema (a malformed one is dropped). */
  onMessage(message: AgentMessage<N>): void;
  /** Each time the server acknowledged the watch (after every reconnection too): read what was missed. */
  onWatched?(): void;
}

export interface AgentWatches {
  /**
   * Hears the agent's `name` messages. The server is asked once (`watch_agent`) however many listen, for
   * whichever messages, again on every reconnection, and told `unwatch_agent` when the last one stops (so a
   * chat list that stops never undoes the run list's watch). Returns the stop.
   */
  watch<N extends AgentMessageName>(agentId: string, name: N, listener: AgentWatchListener<N>): () => void;
}

/** The part of the socket connection the watches use. */
export interface AgentWatchLink {
  isConnected(): boolean;
  emit(name: keyof ClientToServerEvents, payload: unknown, ack?: (raw: unknown) => void): void;
  on(name: keyof ServerToClientEvents, listener: (raw: unknown) => void): () => void;
  onConnect(listener: () => void): () => void;
}

interface WatchEntry {
  name: AgentMessageName;
  listener: AgentWatchListener<AgentMessageName>;
}

export function createAgentWatches(link: AgentWatchLink): AgentWatches {
  /** Every watched agent's listeners: the agent is watched on the server while it has one. */
  const watched = new Map<string, Set<WatchEntry>>();
  const heard = new Set<AgentMessageName>();

  const sendWatch = (agentId: string) => {
    if (!link.isConnected()) return;
    link.emit("watch_agent", { agentId }, (raw) => {
      const ack = WatchAgentAck.safeParse(raw);
      if (ack.success && ack.data.ok) {
        for (const entry of [...(watched.get(agentId) ?? [])]) entry.listener.onWatched?.();
        return;
      }
      const error =
        ack.success && !ack.data.ok
          ? ack.data.error
          : createInvalidMessageError("watch_agent acknowledgement");
      console.warn(`Cannot watch agent "${agentId}": ${error.message}`);
    });
  };

  /** One connection listener per message name, checking each message once for all its listeners. */
  const hear = (name: AgentMessageName) => {
    if (heard.has(name)) return;
    heard.add(name);
    link.on(name, (raw) => {
      const parsed = AGENT_MESSAGES[name].safeParse(raw);
      if (!parsed.success) return;
      for (const entry of [...(watched.get(parsed.data.agentId) ?? [])]) {
        if (entry.name === name) entry.listener.onMessage(parsed.data);
      }
    });
  };

  link.onConnect(() => {
    for (const agentId of watched.keys()) sendWatch(agentId);
  });

  return {
    watch(agentId, name, listener) {
      hear(name);
      const entry: WatchEntry = { name, listener: listener as AgentWatchListener<AgentMessageName> };
      const held = watched.get(agentId) ?? new Set<WatchEntry>();
      held.add(entry);
      if (!watched.has(agentId)) {
        watched.set(agentId, held);
        sendWatch(agentId);
      }
      return () => {
        held.delete(entry);
        if (held.size > 0 || watched.get(agentId) !== held) return;
        watched.delete(agentId);
        link.emit("unwatch_agent", { agentId });
      };
    },
  };
}
