import {
  WatchInboxMessage,
  type ClientToServerEvents,
  type InboxItem,
  type ServerToClientEvents,
  type WatchInboxAck,
} from "@waddle/protocol";
import type { Server, Socket } from "socket.io";
import { z } from "zod";
import type { Actor } from "../access/actor.js";
import { inScope } from "../access/permissions.js";
import { socketActorOf } from "../access/socket-actor.js";
import type { InboxChange, InboxService } from "../inbox/inbox-service.js";
import { isSnoozed } from "../inbox/page-inbox-items.js";
import type { RunEventHub } from "../runs/run-event-hub.js";
import type { Logger } from "../shared/logger.js";

type InboxSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

/** What instances tell each other of inbox changes only they see (marks set, sessions changed there). */
const CLUSTER_EVENT = "waddle:inbox";
const ClusterChange = z.union([
  z.strictObject({ itemId: z.string().min(1).max(300) }),
  z.strictObject({ sessionId: z.string().min(1).max(200) }),
]);

interface Watcher {
  socket: InboxSocket;
  actor: Actor;
  agentId?: string;
}

/**
 * `watch_inbox {agentId?}` sends `inbox_item_added`, `inbox_item_updated` and `inbox_item_removed` to the
 * socket for the items its key may see (and of that agent only, when named), acking with how many are open.
 * While any socket watches, this instance keeps the items it last told them of and compares each change
 * with it: a run's change (every instance hears every run in queue mode), a mark or a session changed here,
 * and, in queue mode, those changed on another instance (`waddle:inbox` through the Redis adapter). Each
 * item is re-read from the store, one read at a time per item, so the last message never lags the store.
 */
export function attachInboxWatchers(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- cluster events are typed here, not in the maps
  io: Server<ClientToServerEvents, ServerToClientEvents, any>,
  options: { inbox: InboxService; hub: RunEventHub; logger: Logger; cluster: boolean },
): void {
  const { inbox, logger } = options;
  const watchers = new Map<string, Watcher>();
  /** The items the watchers were told of; undefined while nobody watches. */
  let known: Map<string, InboxItem> | undefined;
  let seeding: Promise<void> | undefined;
  const waiting: InboxChange[] = [];
  const reading = new Map<string, { again: boolean }>();

  const tell = (item: InboxItem, send: (socket: InboxSocket) => void) => {
    for (const watcher of watchers.values()) {
      if (!inScope(watcher.actor, item.agentId)) continue;
      if (watcher.agentId !== undefined && watcher.agentId !== item.agentId) continue;
      send(watcher.socket);
    }
  };

  const apply = (itemId: string, item: InboxItem | undefined) => {
    if (!known) return;
    const before = known.get(itemId);
    if (before && (!item || before.resumeToken !== item.resumeToken)) {
      known.delete(itemId);
      tell(before, (socket) => socket.emit("inbox_item_removed", { itemId }));
    }
    if (!item) return;
    const previous = known.get(itemId);
    if (previous && JSON.stringify(previous) === JSON.stringify(item)) return;
    known.set(itemId, item);
    tell(item, (socket) => socket.emit(previous ? "inbox_item_updated" : "inbox_item_added", { item }));
  };

  const refresh = async (itemId: string) => {
    const current = reading.get(itemId);
    if (current) {
      current.again = true;
      return;
    }
    const state = { again: false };
    reading.set(itemId, state);
    try {
      do {
        state.again = false;
        apply(itemId, (await inbox.getEntry(itemId))?.item);
      } while (state.again && known);
    } catch (error) {
      logger.warn("an inbox item could not be read for its watchers", { itemId, error: String(error) });
    } finally {
      reading.delete(itemId);
    }
  };

  const handle = async (change: InboxChange): Promise<void> => {
    if (!known) return;
    if (seeding) {
      waiting.push(change);
      return;
    }
    if ("itemId" in change) return refresh(change.itemId);
    const prefix = `merge:${change.sessionId}:`;
    const ids = new Set([...known.keys()].filter((itemId) => itemId.startsWith(prefix)));
    try {
      for (const entry of await inbox.getSessionEntries(change.sessionId)) ids.add(entry.item.itemId);
    } catch (error) {
      logger.warn("a session could not be read for the inbox's watchers", { error: String(error) });
    }
    await Promise.all([...ids].map((itemId) => refresh(itemId)));
  };

  const seed = () => {
    known = new Map();
    const seeded = (seeding = inbox
      .listEntries()
      .then((entries) => {
        if (!known || seeding !== seeded) return;
        for (const { item } of entries) known.set(item.itemId, item);
      })
      .finally(() => {
        if (seeding === seeded) seeding = undefined;
        // What changed while the inbox was read is read again now.
        for (const change of waiting.splice(0)) void handle(change);
      }));
    return seeded;
  };

  const cluster = io as unknown as {
    serverSideEmit(event: string, change: InboxChange): void;
    on(event: string, listener: (change: unknown) => void): void;
  };
  options.hub.onRunChange((runId) => void handle({ itemId: `pause:${runId}` }));
  inbox.onChange((change) => {
    void handle(change);
    if (options.cluster) cluster.serverSideEmit(CLUSTER_EVENT, change);
  });
  if (options.cluster) {
    cluster.on(CLUSTER_EVENT, (message) => {
      const parsed = ClusterChange.safeParse(message);
      if (parsed.success) void handle(parsed.data);
    });
  }

  const unwatch = (socket: InboxSocket) => {
    watchers.delete(socket.id);
    if (watchers.size > 0) return;
    known = undefined;
    seeding = undefined;
    waiting.length = 0;
  };

  io.on("connection", (socket: InboxSocket) => {
    socket.on("watch_inbox", async (message, ack) => {
      const answer = typeof ack === "function" ? ack : () => undefined;
      const parsed = WatchInboxMessage.safeParse(message ?? {});
      if (!parsed.success) {
        answer(failure("validation_failed", "watch_inbox takes {agentId?: an agent id (a slug)}."));
        return;
      }
      const actor = socketActorOf(socket);
      const { agentId } = parsed.data;
      if (agentId !== undefined && !inScope(actor, agentId)) {
        answer(failure("not_found", "Not found, or outside the agents this key may use."));
        return;
      }
      if (!socket.connected) return;
      watchers.set(socket.id, { socket, actor, ...(agentId === undefined ? {} : { agentId }) });
      try {
        await (seeding ?? (known ? undefined : seed()));
        const now = inbox.now();
        const openCount = [...(known?.values() ?? [])].filter(
          (item) =>
            inScope(actor, item.agentId) &&
            (agentId === undefined || item.agentId === agentId) &&
            !isSnoozed(item, now),
        ).length;
        answer({ ok: true, openCount });
      } catch (error) {
        unwatch(socket);
        logger.error("watch_inbox failed", { error: String(error) });
        answer(failure("internal", "The server could not read the inbox."));
      }
    });
    socket.on("unwatch_inbox", () => unwatch(socket));
    socket.on("disconnect", () => unwatch(socket));
  });
}

function failure(code: string, message: string): WatchInboxAck {
  return { ok: false, error: { code, message } };
}
