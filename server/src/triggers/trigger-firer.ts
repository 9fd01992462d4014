import { TERMINAL_RUN_STATUSES } from "@waddle/protocol";
import type { NotifyFunction } from "../notifications/notify.js";
import { resolveRunTarget } from "../releases/resolve-run-target.js";
import type { RunCommands } from "../runs/run-service.js";
import { ApiError, isApiError, isWireError } from "../shared/api-error.js";
import type { Logger } from "../shared/logger.js";
import type { StoredFire, TriggerRecord } from "../store/triggers/trigger-store.js";
import { isStoreError, type WaddleStore } from "../store/waddle-store.js";
import { getFireRunId, getTickFireId } from "./trigger-ids.js";

type ScheduleTrigger = Extract<TriggerRecord, { kind: "schedule" }>;

export interface TriggerFirerOptions {
  store: WaddleStore;
  runs: Pick<RunCommands, "startRun">;
  logger: Logger;
  /** `trigger.failed` for each fire that could not start its run. */
  notify: NotifyFunction;
}

/** What a fire starts: its id, the run it names, when it fired, and what the run gets besides its query. */
export interface FireStart {
  fireId: string;
  firedAt: string;
  query: string;
  contextMeta: Record<string, unknown>;
}

/** A fire as written, and the refusal behind a failed one (a webhook answers with it). */
export interface FireOutcome {
  fire: StoredFire;
  error?: ApiError;
}

/**
 * Starts the runs of triggers and writes their fires. Every step may be taken twice (an instance that
 * took a dead claimer's tick, two instances draining one waiting fire): a fire's id and its run's id are
 * fixed by the tick, so a second start is refused by the store as a duplicate and writes the same fire.
 */
export class TriggerFirer {
  constructor(private readonly options: TriggerFirerOptions) {}

  /** Fires a tick of a schedule this instance claimed, by its `overlap` rule. */
  async fireTick(trigger: ScheduleTrigger, tick: string): Promise<FireOutcome> {
    const { store } = this.options;
    const fireId = getTickFireId(trigger.id, tick);
    const runId = getFireRunId(fireId);
    const [existing, run] = await Promise.all([store.triggers.getFire(fireId), store.getRun(runId)]);
    // Fired already (a claim taken again after its claimer wrote the fire), or waiting for its turn.
    if (existing) return { fire: existing };
    // Its run started, and its claimer died before writing the fire.
    if (run) return { fire: await this.saveStarted(trigger, fireId, tick, runId) };
    if (trigger.overlap !== "allow") {
      const previous = await this.getGoingFire(trigger.id, tick);
      if (previous && (trigger.overlap === "skip" || previous.status === "queued")) {
        const message =
          previous.status === "queued"
            ? `A fire of this trigger already waits for the run of ${previous.firedAt} to end: this tick is skipped.`
            : `The run of the fire at ${previous.firedAt} (${previous.runId}) is still going: this tick is skipped (overlap: skip).`;
        return {
          fire: await this.save({
            id: fireId,
            triggerId: trigger.id,
            firedAt: tick,
            status: "skipped",
            runId: null,
            error: { code: "skipped_overlap", message },
          }),
        };
      }
      if (previous) {
        return {
          fire: await this.save({
            id: fireId,
            triggerId: trigger.id,
            firedAt: tick,
            status: "queued",
            runId: null,
            error: null,
          }),
        };
      }
    }
    return this.start(trigger, this.getTickStart(trigger, fireId, tick));
  }

  /**
   * Starts the waiting fires (`overlap: queue`) whose trigger's previous run has ended, oldest first; the
   * runs they still wait for, by trigger.
   */
  async drainQueued(): Promise<Map<string, string>> {
    const { store } = this.options;
    const waitingOn = new Map<string, string>();
    for (const fire of await store.triggers.listQueuedFires()) {
      const trigger = await store.triggers.get(fire.triggerId);
      if (trigger?.kind !== "schedule" || waitingOn.has(trigger.id)) continue;
      if (!trigger.enabled) {
        const message = "The trigger was disabled while this fire waited: it never started.";
        await this.save({ ...fire, status: "skipped", error: { code: "trigger_disabled", message } });
        continue;
      }
      const previous = await this.getGoingFire(trigger.id, fire.firedAt);
      if (previous?.runId) waitingOn.set(trigger.id, previous.runId);
      if (previous) continue;
      await this.start(trigger, this.getTickStart(trigger, fire.id, fire.firedAt));
    }
    return waitingOn;
  }

  /**
   * Starts a fire's run on the trigger's channel (`production` by default, else the latest save) and
   * writes the fire: started, or failed with why (`channel_not_found`, …), which `trigger.failed` tells.
   */
  async start(trigger: TriggerRecord, start: FireStart): Promise<FireOutcome> {
    const { store, runs } = this.options;
    const runId = getFireRunId(start.fireId);
    try {
      const target = await this.resolveChannel(trigger);
      await runs.startRun(
        {
          agentId: trigger.agentId,
          query: start.query,
          ...(target.version === undefined ? {} : { agentVersion: target.version }),
        },
        {
          runId,
          contextMeta: start.contextMeta,
          origin: {
            trigger: { id: trigger.id, kind: trigger.kind },
            ...(target.channel ? { channel: target.channel } : {}),
          },
        },
      );
    } catch (error) {
      // Started by another instance (or an earlier attempt) under the same run id.
      if (!(isStoreError(error) && error.code === "conflict" && (await store.getRun(runId)))) {
        return this.fail(trigger, start, error);
      }
    }
    return { fire: await this.saveStarted(trigger, start.fireId, start.firedAt, runId) };
  }

  private getTickStart(trigger: ScheduleTrigger, fireId: string, tick: string): FireStart {
    return {
      fireId,
      firedAt: tick,
      query: trigger.query,
      contextMeta: { ...trigger.context, trigger: { id: trigger.id, kind: trigger.kind, firedAt: tick } },
    };
  }

  /** The latest earlier fire whose run has not ended (or that still waits to start), if any. */
  private async getGoingFire(triggerId: string, before: string): Promise<StoredFire | undefined> {
    const [previous] = await this.options.store.triggers.listFires(triggerId, {
      before,
      statuses: ["started", "queued"],
      limit: 1,
    });
    if (!previous) return undefined;
    if (previous.status === "queued") return previous;
    const run = previous.runId ? await this.options.store.getRun(previous.runId) : undefined;
    return run && !TERMINAL_RUN_STATUSES.has(run.status) ? previous : undefined;
  }

  private async resolveChannel(trigger: TriggerRecord) {
    try {
      return await resolveRunTarget(this.options.store, trigger.agentId, { channel: trigger.channel });
    } catch (error) {
      const details = isApiError(error, "not_found") ? (error.details as { channel?: string }) : undefined;
      if (details?.channel === undefined) throw error;
      throw new ApiError(
        "channel_not_found",
        `Agent "${trigger.agentId}" has no channel "${details.channel}" (any more): release a version to it, or set the trigger's channel to another.`,
        { agentId: trigger.agentId, channel: details.channel },
      );
    }
  }

  private async saveStarted(
    trigger: TriggerRecord,
    fireId: string,
    firedAt: string,
    runId: string,
  ): Promise<StoredFire> {
    const fire = await this.save({
      id: fireId,
      triggerId: trigger.id,
      firedAt,
      status: "started",
      runId,
      error: null,
    });
    await this.options.store.triggers.markFired(trigger.id, firedAt);
    return fire;
  }

  private async fail(trigger: TriggerRecord, start: FireStart, error: unknown): Promise<FireOutcome> {
    const refusal = isWireError(error)
      ? error
      : new ApiError("internal", "The run could not start because of a server error: see the server's log.");
    if (!isWireError(error)) {
      this.options.logger.error("trigger fire failed", { triggerId: trigger.id, error: String(error) });
    }
    const fire = await this.save({
      id: start.fireId,
      triggerId: trigger.id,
      firedAt: start.firedAt,
      status: "failed",
      runId: null,
      error: { code: refusal.code, message: refusal.message },
    });
    this.options.notify("trigger.failed", {
      agentId: trigger.agentId,
      triggerId: trigger.id,
      kind: trigger.kind,
      fireId: fire.id,
      error: { code: refusal.code, message: refusal.message },
      summary: `Trigger ${trigger.name ?? trigger.id} of ${trigger.agentId} did not start a run: ${refusal.message}`,
    });
    return { fire, error: refusal };
  }

  private async save(fire: StoredFire): Promise<StoredFire> {
    await this.options.store.triggers.saveFire(fire);
    return fire;
  }
}
