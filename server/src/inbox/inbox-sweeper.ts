import { TIMEOUT_ACTOR, type InboxItem } from "@waddle/protocol";
import type { Actor } from "../access/actor.js";
import type { AuditTrail } from "../access/audit-trail.js";
import type { RunEventHub } from "../runs/run-event-hub.js";
import type { Logger } from "../shared/logger.js";
import type { InboxNotice } from "../store/inbox/inbox-store.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { decideTimeout, getTimeoutNote, type TimeoutRuns } from "./decide-timeout.js";
import { createInboxEvent, getItemToken, type InboxEvents, type InboxEventType } from "./inbox-events.js";
import type { InboxEntry, InboxService } from "./inbox-service.js";

/** The audit log's actor of a decision the server made at a pause's due time. */
export const TIMEOUT_AUDIT_ACTOR: Actor = Object.freeze({
  kind: "local",
  name: TIMEOUT_ACTOR,
  keyId: null,
  role: "admin",
  agents: null,
  canDecide: true,
});

/** `pause.due_soon` comes when this fraction of the limit is left, at most `DUE_SOON_MAX_MS` before. */
const DUE_SOON_FRACTION = 0.2;
const DUE_SOON_MAX_MS = 15 * 60_000;
/** A pause the run service would not resume at its due time is tried again after this long… */
const REFUSED_RETRY_MS = 10_000;
/** …and failed once it is this far past due (its toolContext is gone, its LLM endpoint refused…). */
const REFUSED_FAIL_AFTER_MS = 60_000;

export interface InboxSweeperOptions {
  store: WaddleStore;
  inbox: InboxService;
  runs: TimeoutRuns;
  events: InboxEvents;
  audit: AuditTrail;
  logger: Logger;
  /** Every instance's run status changes (queue mode: the cluster's hub). */
  hub: RunEventHub;
  /** How often the whole inbox is read again besides the due times it knows (default 5 s). */
  pollMs?: number;
  now?: () => number;
}

/** When `pause.due_soon` is due for an item with a due time. */
export function getDueSoonAt(item: InboxItem): number | undefined {
  if (!item.dueAt) return undefined;
  const due = Date.parse(item.dueAt);
  const window = Math.min(DUE_SOON_MAX_MS, (due - Date.parse(item.createdAt)) * DUE_SOON_FRACTION);
  return due - Math.max(0, window);
}

/**
 * Keeps the inbox's promises on this instance: decides each pause past its due time as its
 * `approval.onTimeout` says, and announces each item once (`pause.created`, `merge.pending`,
 * `pause.due_soon`). Every decision and announcement is a conditional write in the store, so that of all
 * instances exactly one does each, whichever sees it first; an instance that was down decides at `start`.
 * Wakes at the next due time it knows, when a run pauses anywhere, and every `pollMs`.
 */
export class InboxSweeper {
  private timer: NodeJS.Timeout | undefined;
  private nextWake = Infinity;
  private sweeping: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly refused = new Map<string, number>();
  private readonly stops: (() => void)[] = [];

  constructor(private readonly options: InboxSweeperOptions) {}

  /** Sweeps now (what came due while no server ran is decided here), then on every wake. */
  start(): Promise<void> {
    this.stops.push(
      this.options.hub.onStatus((message) => {
        if (message.status === "paused") void this.noticeRun(message.runId);
      }),
      this.options.inbox.onChange((change) => {
        if ("sessionId" in change) void this.noticeSession(change.sessionId);
      }),
    );
    return this.sweep();
  }

  stop(): void {
    this.stopped = true;
    for (const stop of this.stops.splice(0)) stop();
    clearTimeout(this.timer);
  }

  /** Reads every waiting item: decides those due, announces those not yet announced. One at a time. */
  sweep(): Promise<void> {
    if (this.sweeping) {
      this.again = true;
      return this.sweeping;
    }
    this.sweeping = (async () => {
      do {
        this.again = false;
        await this.sweepOnce().catch((error: unknown) =>
          this.options.logger.warn("the inbox sweep failed; it runs again", { error: String(error) }),
        );
      } while (this.again && !this.stopped);
    })().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private async sweepOnce(): Promise<void> {
    if (this.stopped) return;
    let next = this.now() + (this.options.pollMs ?? 5_000);
    for (const entry of await this.options.inbox.listEntries()) {
      const wake = await this.visit(entry);
      if (wake !== undefined) next = Math.min(next, wake);
    }
    this.wakeAt(next);
  }

  /** Announces, decides or waits for one item; the time it next needs a look, if any. */
  private async visit({ item, mark }: InboxEntry): Promise<number | undefined> {
    if (!mark?.createdNoticedAt) await this.announce(item, "created");
    const dueSoonAt = getDueSoonAt(item);
    if (!item.dueAt || dueSoonAt === undefined) return undefined;
    const now = this.now();
    const due = Date.parse(item.dueAt);
    if (now >= due) return this.decide(item, due);
    if (now < dueSoonAt) return dueSoonAt;
    if (!mark?.dueSoonNoticedAt) await this.announce(item, "due_soon");
    return due;
  }

  /** A run paused (on any instance): announce it, and wake at its due-soon or due time. */
  private async noticeRun(runId: string): Promise<void> {
    try {
      const entry = await this.options.inbox.getEntry(`pause:${runId}`);
      if (!entry) return;
      const wake = await this.visit(entry);
      if (wake !== undefined) this.wakeAt(wake);
    } catch (error) {
      this.options.logger.warn("a paused run could not be read for the inbox", {
        runId,
        error: String(error),
      });
    }
  }

  /** A session changed here: announce the merges it newly holds. */
  private async noticeSession(sessionId: string): Promise<void> {
    try {
      for (const entry of await this.options.inbox.getSessionEntries(sessionId)) {
        if (!entry.mark?.createdNoticedAt) await this.announce(entry.item, "created");
      }
    } catch (error) {
      this.options.logger.warn("a session could not be read for the inbox", {
        sessionId,
        error: String(error),
      });
    }
  }

  /** Sends the notice if this instance's claim wins (once per item across instances). */
  private async announce(item: InboxItem, notice: InboxNotice): Promise<void> {
    const now = this.now();
    const claimed = await this.options.store.inbox.claimNotice({
      itemId: item.itemId,
      token: getItemToken(item),
      notice,
      now: new Date(now).toISOString(),
    });
    if (!claimed) return;
    const type: InboxEventType =
      notice === "due_soon" ? "pause.due_soon" : item.kind === "merge" ? "merge.pending" : "pause.created";
    this.options.events.emit(createInboxEvent(type, item, { now }));
  }

  /** Decides a pause past its due time; a refusal is tried again later, then ends the run failed. */
  private async decide(item: InboxItem, due: number): Promise<number | undefined> {
    const now = this.now();
    const token = getItemToken(item);
    const retryAt = this.refused.get(token);
    if (retryAt !== undefined && now < retryAt) return retryAt;
    const fallback = retryAt !== undefined && now >= due + REFUSED_FAIL_AFTER_MS;
    const action = fallback ? "fail" : (item.onTimeout ?? "reject");
    const outcome = await decideTimeout(this.options.runs, item, action);
    if (outcome.kind === "refused") {
      this.refused.set(token, now + REFUSED_RETRY_MS);
      this.options.logger.warn("a pause past its time could not be decided here yet", {
        runId: item.runId,
        error: String(outcome.error),
      });
      return now + REFUSED_RETRY_MS;
    }
    this.refused.delete(token);
    if (outcome.kind === "taken") {
      this.options.logger.info("a pause past its time was decided elsewhere first", { runId: item.runId });
      return undefined;
    }
    this.options.logger.info("a pause past its time was decided here", {
      runId: item.runId,
      decision: action,
    });
    await this.options.audit.record(TIMEOUT_AUDIT_ACTOR, {
      action: "run.decision",
      target: { type: "run", id: item.runId },
      details: {
        decision: action,
        via: "timeout",
        agentId: item.agentId,
        reason: item.reason,
        ...(item.tool ? { tool: item.tool } : {}),
        dueAt: item.dueAt,
        note: getTimeoutNote(item, action),
      },
    });
    this.options.events.emit(createInboxEvent("pause.timed_out", item, { now, decision: action }));
    this.options.inbox.noteChange({ itemId: item.itemId });
    return undefined;
  }

  private wakeAt(at: number): void {
    if (this.stopped || at >= this.nextWake) return;
    this.nextWake = at;
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.nextWake = Infinity;
        void this.sweep();
      },
      Math.max(0, at - this.now()),
    ).unref();
  }
}
