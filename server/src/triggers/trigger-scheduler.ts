import { TERMINAL_RUN_STATUSES } from "@waddle/protocol";
import type { Cron } from "croner";
import type { RunEventHub } from "../runs/run-event-hub.js";
import type { Logger } from "../shared/logger.js";
import type { TriggerRecord } from "../store/triggers/trigger-store.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { createSchedule, getCatchUpTick, getNextFire } from "./schedule-times.js";
import type { TriggerFirer } from "./trigger-firer.js";

type ScheduleTrigger = Extract<TriggerRecord, { kind: "schedule" }>;

interface Entry {
  trigger: ScheduleTrigger;
  schedule: Cron;
  /** What the entry was computed from: a change re-plans its ticks. */
  version: string;
  nextTick: number | undefined;
}

export interface TriggerSchedulerOptions {
  store: WaddleStore;
  firer: TriggerFirer;
  /** Status changes of every run (of every instance in queue mode): a waiting fire starts when its turn comes. */
  hub: RunEventHub;
  logger: Logger;
  /** This instance's name in tick claims. */
  owner: string;
  /** How long a tick's claim lasts: past it, another instance fires a tick whose claimer never finished it. */
  leaseMs: number;
  /** How often triggers are read again, lapsed claims taken and waiting fires looked at (default 1 s). */
  sweepMs?: number;
}

/** The longest a timer is set for (Node's timers hold 2^31 ms); a longer wait is set again then. */
const MAX_TIMER_MS = 60 * 60 * 1_000;
const PRUNE_EVERY_MS = 60_000;
/** Done ticks and idempotency keys are kept this long; fires, the newest `KEEP_FIRES` of each trigger. */
const KEEP_MS = 24 * 60 * 60 * 1_000;
const KEEP_FIRES = 1_000;

const planVersion = (trigger: ScheduleTrigger) => `${trigger.updatedAt}|${trigger.cron}|${trigger.timezone}`;

/**
 * Fires schedules, in one process or across instances on one database. Every instance sets a timer for
 * each enabled schedule's next tick and, at the tick, claims it in the store: one claim wins, so the tick
 * fires once. A claim that is never finished (its instance died) lapses after `leaseMs` and the next sweep
 * of any instance fires the tick. At start, `catchUp: last` fires the latest tick missed while no server
 * ran (unless it was fired: its claim says so).
 */
export class TriggerScheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private armedFor: number | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private waitingOn = new Map<string, string>();
  private stopStatus: (() => void) | undefined;
  private prunedAt = 0;
  private stopped = false;

  constructor(private readonly options: TriggerSchedulerOptions) {}

  /** Reads the schedules, fires what `catchUp` asks, then keeps firing until `stop`. */
  async start(): Promise<void> {
    this.stopStatus = this.options.hub.onStatus((message) => {
      if (!TERMINAL_RUN_STATUSES.has(message.status)) return;
      if ([...this.waitingOn.values()].includes(message.runId)) this.track(this.drain());
    });
    await this.reload({ catchUp: true });
    this.sweeper = setInterval(() => this.sweep(), this.options.sweepMs ?? 1_000);
    this.sweeper.unref();
  }

  /** Reads the triggers again now (one was created, changed or deleted by this instance). */
  refresh(): void {
    if (!this.stopped) this.track(this.reload({ catchUp: false }));
  }

  /** Stops the timers and waits for the fires under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.sweeper);
    this.stopStatus?.();
    await this.sweeping;
    await Promise.allSettled([...this.inFlight]);
  }

  private async reload(options: { catchUp: boolean }): Promise<void> {
    const now = Date.now();
    const triggers = await this.options.store.triggers.list({ kind: "schedule", enabled: true });
    const seen = new Set<string>();
    for (const trigger of triggers) {
      if (trigger.kind !== "schedule") continue;
      seen.add(trigger.id);
      const known = this.entries.get(trigger.id);
      if (known?.version === planVersion(trigger)) {
        known.trigger = trigger;
        continue;
      }
      let schedule: Cron;
      try {
        schedule = createSchedule(trigger);
      } catch (error) {
        this.options.logger.warn("trigger schedule unreadable", {
          triggerId: trigger.id,
          error: String(error),
        });
        continue;
      }
      this.entries.set(trigger.id, {
        trigger,
        schedule,
        version: planVersion(trigger),
        nextTick: getNextFire(schedule, now),
      });
      if (!options.catchUp) continue;
      const tick = getCatchUpTick({
        schedule,
        catchUp: trigger.catchUp,
        sinceMs: Date.parse(trigger.updatedAt),
        nowMs: now,
      });
      if (tick !== undefined) this.track(this.claimAndFire(trigger.id, tick));
    }
    for (const id of this.entries.keys()) if (!seen.has(id)) this.entries.delete(id);
    this.arm();
  }

  /** Sets the one timer for the soonest tick of all schedules. */
  private arm(): void {
    if (this.stopped) return;
    let soonest: number | undefined;
    for (const entry of this.entries.values()) {
      if (entry.nextTick !== undefined && (soonest === undefined || entry.nextTick < soonest))
        soonest = entry.nextTick;
    }
    if (soonest === this.armedFor && this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = soonest;
    if (soonest === undefined) return;
    this.timer = setTimeout(() => this.onTimer(), Math.min(Math.max(0, soonest - Date.now()), MAX_TIMER_MS));
    this.timer.unref();
  }

  private onTimer(): void {
    this.timer = undefined;
    const now = Date.now();
    for (const entry of this.entries.values()) {
      const tick = entry.nextTick;
      if (tick === undefined || tick > now) continue;
      entry.nextTick = getNextFire(entry.schedule, tick);
      this.track(this.claimAndFire(entry.trigger.id, tick));
    }
    this.arm();
  }

  private async claimAndFire(triggerId: string, tickMs: number): Promise<void> {
    const tick = new Date(tickMs).toISOString();
    const { store, owner, leaseMs } = this.options;
    if (await store.triggers.claimTick({ triggerId, tick, owner, leaseMs }))
      await this.fireClaimed(triggerId, tick);
  }

  /** Fires a tick this instance holds the claim of, then marks it done. */
  private async fireClaimed(triggerId: string, tick: string): Promise<void> {
    const { store, owner } = this.options;
    const trigger = await store.triggers.get(triggerId);
    // Deleted, disabled or changed since the tick was planned: a tick that is no longer one fires nothing.
    if (trigger?.kind === "schedule" && trigger.enabled && this.isTickOf(trigger, tick)) {
      const { fire } = await this.options.firer.fireTick(trigger, tick);
      if (fire.status === "queued") this.track(this.drain());
    }
    await store.triggers.finishTick({ triggerId, tick, owner });
  }

  private isTickOf(trigger: ScheduleTrigger, tick: string): boolean {
    const tickMs = Date.parse(tick);
    try {
      return getNextFire(createSchedule(trigger), tickMs - 1) === tickMs;
    } catch {
      return false;
    }
  }

  private sweep(): void {
    if (this.sweeping || this.stopped) return;
    this.sweeping = (async () => {
      await this.reload({ catchUp: false });
      const { store, owner, leaseMs } = this.options;
      for (const lapsed of await store.triggers.listLapsedTicks()) {
        if (await store.triggers.claimTick({ ...lapsed, owner, leaseMs })) {
          this.options.logger.info("trigger tick taken over", { ...lapsed });
          await this.fireClaimed(lapsed.triggerId, lapsed.tick);
        }
      }
      await this.drain();
      if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
        this.prunedAt = Date.now();
        await store.triggers.prune({
          before: new Date(Date.now() - KEEP_MS).toISOString(),
          keepFires: KEEP_FIRES,
        });
      }
    })()
      .catch((error: unknown) => this.options.logger.warn("trigger sweep failed", { error: String(error) }))
      .finally(() => (this.sweeping = undefined));
  }

  private async drain(): Promise<void> {
    this.waitingOn = await this.options.firer.drainQueued();
  }

  /** Keeps a background step until it settles, so that `stop` waits for it; its failure is logged. */
  private track(work: Promise<void>): void {
    const tracked = work
      .catch((error: unknown) => this.options.logger.warn("trigger fire failed", { error: String(error) }))
      .finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }
}
