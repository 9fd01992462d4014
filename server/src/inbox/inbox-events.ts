import type { ApprovalTimeoutAction, InboxItem } from "@waddle/protocol";
import type { Logger } from "../shared/logger.js";

/** What the inbox announces, each once per pause or merge across every instance (notifications send them). */
export const INBOX_EVENT_TYPES = [
  "pause.created",
  "pause.due_soon",
  "pause.timed_out",
  "merge.pending",
] as const;
export type InboxEventType = (typeof INBOX_EVENT_TYPES)[number];

export interface InboxEvent {
  /**
   * Stable: `<type>:<itemId>:<resume token or merge id>`, the same on every instance. Each event is emitted
   * once, on the one instance whose store claim won; keep the id to make a retried delivery idempotent.
   */
  id: string;
  type: InboxEventType;
  /** When it happened here (ISO). */
  at: string;
  /** The item as the inbox lists it then (`dueAt`, `startedBy`, …); for `pause.timed_out`, as it was. */
  item: InboxItem;
  /** `pause.timed_out`: what the server decided. */
  decision?: ApprovalTimeoutAction;
}

export type InboxEventListener = (event: InboxEvent) => void | Promise<void>;

/**
 * The inbox's hook for notifications (issue 34): `on(listener)` hears `pause.created` (a run began waiting
 * for a person), `pause.due_soon` (the last fifth of its time limit, at most 15 minutes, is left),
 * `pause.timed_out` (the server decided it) and `merge.pending` (a session holds task results for a
 * person). A listener that throws or rejects is logged and never affects the run or the other listeners.
 */
export class InboxEvents {
  private readonly listeners = new Set<InboxEventListener>();

  constructor(private readonly logger: Logger) {}

  /** Listens to every event of this instance from now on; returns how to stop. */
  on(listener: InboxEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: InboxEvent): void {
    for (const listener of this.listeners) {
      try {
        void Promise.resolve(listener(event)).catch((error: unknown) => this.failed(event, error));
      } catch (error) {
        this.failed(event, error);
      }
    }
  }

  private failed(event: InboxEvent, error: unknown): void {
    this.logger.warn("an inbox event listener failed", { id: event.id, error: String(error) });
  }
}

/** The token an item's events are keyed by: its pause's resume token, or its merge's id. */
export function getItemToken(item: InboxItem): string {
  return item.resumeToken ?? item.mergeId ?? "";
}

export function createInboxEvent(
  type: InboxEventType,
  item: InboxItem,
  options: { now: number; decision?: ApprovalTimeoutAction },
): InboxEvent {
  return {
    id: `${type}:${item.itemId}:${getItemToken(item)}`,
    type,
    at: new Date(options.now).toISOString(),
    item,
    ...(options.decision ? { decision: options.decision } : {}),
  };
}
