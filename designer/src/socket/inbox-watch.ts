import {
  InboxItemAdded,
  InboxItemRemoved,
  InboxItemUpdated,
  WatchInboxAck,
  type InboxItem,
} from "@waddle/protocol";
import type { AgentWatchLink } from "./agent-watches.js";
import { createInvalidMessageError, type TransportError } from "./transport-error.js";

/** What the inbox hears, each message checked with the protocol's schema (a malformed one is dropped). */
export interface InboxWatchListener {
  /** Each time the server acknowledged `watch_inbox` (after every reconnection too): read what was missed. */
  onWatched(openCount: number): void;
  onAdded(item: InboxItem): void;
  onUpdated(item: InboxItem): void;
  onRemoved(removed: InboxItemRemoved): void;
  /** The server refused the watch (a key that may see no inbox), or its answer was malformed. */
  onError?(error: TransportError): void;
}

/**
 * Watches the approvals inbox on the shared socket (`watch_inbox`), again on every reconnection, and hands
 * `inbox_item_added` / `_updated` / `_removed` to the listener. Returns the stop (`unwatch_inbox`).
 */
export function watchInbox(link: AgentWatchLink, listener: InboxWatchListener): () => void {
  let stopped = false;
  const send = () => {
    if (stopped || !link.isConnected()) return;
    link.emit("watch_inbox", {}, (raw) => {
      if (stopped) return;
      const ack = WatchInboxAck.safeParse(raw);
      if (ack.success && ack.data.ok) return listener.onWatched(ack.data.openCount);
      listener.onError?.(
        ack.success && !ack.data.ok
          ? ack.data.error
          : createInvalidMessageError("watch_inbox acknowledgement"),
      );
    });
  };
  const stops = [
    link.on("inbox_item_added", (raw) => {
      const parsed = InboxItemAdded.safeParse(raw);
      if (parsed.success && !stopped) listener.onAdded(parsed.data.item);
    }),
    link.on("inbox_item_updated", (raw) => {
      const parsed = InboxItemUpdated.safeParse(raw);
      if (parsed.success && !stopped) listener.onUpdated(parsed.data.item);
    }),
    link.on("inbox_item_removed", (raw) => {
      const parsed = InboxItemRemoved.safeParse(raw);
      if (parsed.success && !stopped) listener.onRemoved(parsed.data);
    }),
    link.onConnect(send),
  ];
  send();
  return () => {
    if (stopped) return;
    stopped = true;
    for (const stop of stops) stop();
    if (link.isConnected()) link.emit("unwatch_inbox", {});
  };
}
