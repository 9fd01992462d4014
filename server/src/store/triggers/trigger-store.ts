import type { CreateTriggerRequest, TriggerFire, TriggerKind } from "@waddle/protocol";

type ScheduleSettings = Omit<Extract<CreateTriggerRequest, { kind: "schedule" }>, "enabled" | "name">;
type WebhookSettings = Omit<Extract<CreateTriggerRequest, { kind: "webhook" }>, "enabled" | "name">;
/** What a trigger of each kind is set to: its fields as `POST /api/agents/:id/triggers` takes them. */
export type TriggerSettings = ScheduleSettings | WebhookSettings;

/** A trigger as the store keeps it: its settings, who made it, and a webhook's secret. */
export type TriggerRecord = TriggerSettings & {
  id: string;
  agentId: string;
  name: string | null;
  enabled: boolean;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  lastFiredAt: string | null;
  /** A webhook's secret (HMAC key or bearer token); null for a schedule. */
  secret: string | null;
};

/** A fire as stored; `runStatus` is read from the run when listed. */
export type StoredFire = Omit<TriggerFire, "runStatus">;

/** A schedule's tick whose claim lapsed before it was done: its claimer died, another fires it. */
export interface LapsedTick {
  triggerId: string;
  tick: string;
}

/**
 * Triggers (issue 34), their fires, the claims that make each tick of a schedule fire once across
 * instances, and webhook idempotency keys. Memory, SQLite and PostgreSQL under one conformance suite
 * (`trigger-store-cases.ts`). Deleting a trigger deletes what belongs to it.
 */
export interface TriggerStore {
  /** `conflict` when the id is taken. */
  create(trigger: TriggerRecord): Promise<TriggerRecord>;
  get(id: string): Promise<TriggerRecord | undefined>;
  /** Oldest first. */
  list(options?: { agentId?: string; kind?: TriggerKind; enabled?: boolean }): Promise<TriggerRecord[]>;
  /** Replaces a trigger's row (its id and agent stay); `not_found` when it is gone. */
  replace(trigger: TriggerRecord): Promise<TriggerRecord>;
  /** Moves `lastFiredAt` forward to `at` (never back). */
  markFired(id: string, at: string): Promise<void>;
  /** False when unknown. */
  delete(id: string): Promise<boolean>;
  /** Deletes an agent's triggers (its agent was deleted); how many. */
  deleteAgent(agentId: string): Promise<number>;

  /** Writes a fire, or replaces the fire with its id. */
  saveFire(fire: StoredFire): Promise<void>;
  getFire(id: string): Promise<StoredFire | undefined>;
  /** Newest first (by `firedAt`); `before`: fired strictly before it; `statuses`: only these. */
  listFires(
    triggerId: string,
    options?: { limit?: number; before?: string; statuses?: readonly StoredFire["status"][] },
  ): Promise<StoredFire[]>;
  /** Fires waiting for their trigger's previous run (`overlap: queue`), oldest first, of every trigger. */
  listQueuedFires(limit?: number): Promise<StoredFire[]>;

  /**
   * Claims a tick of a schedule for `owner` during `leaseMs`: true for the one claim that wins, false while
   * another's lease runs or once the tick was done. A lapsed claim (its owner died) may be taken again.
   */
  claimTick(options: { triggerId: string; tick: string; owner: string; leaseMs: number }): Promise<boolean>;
  /** Marks a claimed tick done (if `owner` still holds it): it never fires again. */
  finishTick(options: { triggerId: string; tick: string; owner: string }): Promise<void>;
  /** Ticks claimed and never done whose lease has run out, oldest first. */
  listLapsedTicks(limit?: number): Promise<LapsedTick[]>;

  /**
   * Keeps `runId` as the run of a webhook delivery with this key, unless the key already has one (a
   * redelivery): then that run.
   */
  reserveKey(options: {
    triggerId: string;
    key: string;
    runId: string;
    at: string;
  }): Promise<{ reserved: true } | { reserved: false; runId: string }>;
  /** Forgets a reservation whose run never started. */
  releaseKey(options: { triggerId: string; key: string; runId: string }): Promise<void>;

  /**
   * Drops what no longer matters: done ticks before `before` (each trigger's latest tick stays, for the
   * catch-up at start), idempotency keys made before `before`, and fires past the newest `keepFires`.
   */
  prune(options: { before: string; keepFires: number }): Promise<void>;
}
