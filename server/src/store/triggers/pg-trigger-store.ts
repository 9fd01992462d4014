import type { TriggerKind } from "@waddle/protocol";
import { isUniqueViolation } from "../pg-errors.js";
import type { PgQuery } from "../request-keys/pg-request-key-store.js";
import { StoreError } from "../waddle-store.js";
import {
  FIRE_COLUMNS,
  toFireValues,
  toStoredFire,
  toTriggerRecord,
  toTriggerValues,
  TRIGGER_COLUMNS,
} from "./trigger-rows.js";
import type { LapsedTick, StoredFire, TriggerRecord, TriggerStore } from "./trigger-store.js";

const PLACEHOLDERS = TRIGGER_COLUMNS.split(",")
  .map((_column, index) => `$${index + 1}`)
  .join(", ");

/**
 * Triggers in the PostgreSQL store (migration 19), as in SQLite. A tick's claim is one `INSERT … ON
 * CONFLICT` on its primary key, so that of several instances one wins; leases run on PostgreSQL's clock.
 */
export class PgTriggerStore implements TriggerStore {
  constructor(private readonly query: PgQuery) {}

  async create(trigger: TriggerRecord): Promise<TriggerRecord> {
    try {
      await this.query(
        `INSERT INTO triggers (${TRIGGER_COLUMNS}) VALUES (${PLACEHOLDERS})`,
        toTriggerValues(trigger, "boolean"),
        "write",
      );
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new StoreError("conflict", `Trigger "${trigger.id}" already exists.`, { id: trigger.id });
    }
    return structuredClone(trigger);
  }

  async get(id: string): Promise<TriggerRecord | undefined> {
    const { rows } = await this.query("SELECT * FROM triggers WHERE id = $1", [id]);
    return rows[0] ? toTriggerRecord(rows[0]) : undefined;
  }

  async list(
    options: { agentId?: string; kind?: TriggerKind; enabled?: boolean } = {},
  ): Promise<TriggerRecord[]> {
    const { rows } = await this.query(
      `SELECT * FROM triggers WHERE ($1::text IS NULL OR agent_id = $1) AND ($2::text IS NULL OR kind = $2)
         AND ($3::boolean IS NULL OR enabled = $3) ORDER BY position`,
      [options.agentId ?? null, options.kind ?? null, options.enabled ?? null],
    );
    return rows.map(toTriggerRecord);
  }

  async replace(trigger: TriggerRecord): Promise<TriggerRecord> {
    const [, , kind, name, enabled, settings, secret, , , updatedAt, lastFiredAt] = toTriggerValues(
      trigger,
      "boolean",
    );
    const { rows } = await this.query(
      `UPDATE triggers SET kind = $2, name = $3, enabled = $4, settings = $5, secret = $6, updated_at = $7,
         last_fired_at = $8 WHERE id = $1 RETURNING *`,
      [trigger.id, kind, name, enabled, settings, secret, updatedAt, lastFiredAt],
      "write",
    );
    if (!rows[0])
      throw new StoreError("not_found", `Trigger "${trigger.id}" does not exist.`, { id: trigger.id });
    return toTriggerRecord(rows[0]);
  }

  async markFired(id: string, at: string): Promise<void> {
    await this.query(
      "UPDATE triggers SET last_fired_at = $2 WHERE id = $1 AND (last_fired_at IS NULL OR last_fired_at < $2)",
      [id, at],
      "write",
    );
  }

  async delete(id: string): Promise<boolean> {
    // One statement: the trigger and what belongs to it go together.
    const { rows } = await this.query(
      `WITH fires AS (DELETE FROM trigger_fires WHERE trigger_id = $1),
         ticks AS (DELETE FROM trigger_ticks WHERE trigger_id = $1),
         keys AS (DELETE FROM trigger_keys WHERE trigger_id = $1)
       DELETE FROM triggers WHERE id = $1 RETURNING id`,
      [id],
      "write",
    );
    return rows.length > 0;
  }

  async deleteAgent(agentId: string): Promise<number> {
    const { rows } = await this.query("SELECT id FROM triggers WHERE agent_id = $1", [agentId]);
    for (const row of rows as { id: string }[]) await this.delete(row.id);
    return rows.length;
  }

  async saveFire(fire: StoredFire): Promise<void> {
    await this.query(
      `INSERT INTO trigger_fires (${FIRE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO UPDATE SET fired_at = EXCLUDED.fired_at, status = EXCLUDED.status,
           run_id = EXCLUDED.run_id, error = EXCLUDED.error`,
      toFireValues(fire),
      "write",
    );
  }

  async getFire(id: string): Promise<StoredFire | undefined> {
    const { rows } = await this.query("SELECT * FROM trigger_fires WHERE id = $1", [id]);
    return rows[0] ? toStoredFire(rows[0]) : undefined;
  }

  async listFires(
    triggerId: string,
    options: { limit?: number; before?: string; statuses?: readonly StoredFire["status"][] } = {},
  ): Promise<StoredFire[]> {
    const { rows } = await this.query(
      `SELECT * FROM trigger_fires WHERE trigger_id = $1 AND ($2::text IS NULL OR fired_at < $2)
         AND ($3::text[] IS NULL OR status = ANY($3)) ORDER BY fired_at DESC, position DESC LIMIT $4`,
      [
        triggerId,
        options.before ?? null,
        options.statuses ? [...options.statuses] : null,
        options.limit ?? null,
      ],
    );
    return rows.map(toStoredFire);
  }

  async listQueuedFires(limit = 100): Promise<StoredFire[]> {
    const { rows } = await this.query(
      "SELECT * FROM trigger_fires WHERE status = 'queued' ORDER BY fired_at, position LIMIT $1",
      [limit],
    );
    return rows.map(toStoredFire);
  }

  async claimTick(options: {
    triggerId: string;
    tick: string;
    owner: string;
    leaseMs: number;
  }): Promise<boolean> {
    const { rows } = await this.query(
      `INSERT INTO trigger_ticks (trigger_id, tick, owner, lease_until, done)
         VALUES ($1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond', false)
       ON CONFLICT (trigger_id, tick) DO UPDATE SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until
         WHERE NOT trigger_ticks.done AND trigger_ticks.lease_until <= clock_timestamp()
       RETURNING owner`,
      [options.triggerId, options.tick, options.owner, options.leaseMs],
      "write",
    );
    return rows.length > 0;
  }

  async finishTick(options: { triggerId: string; tick: string; owner: string }): Promise<void> {
    await this.query(
      "UPDATE trigger_ticks SET done = true WHERE trigger_id = $1 AND tick = $2 AND owner = $3",
      [options.triggerId, options.tick, options.owner],
      "write",
    );
  }

  async listLapsedTicks(limit = 100): Promise<LapsedTick[]> {
    const { rows } = await this.query(
      `SELECT trigger_id, tick FROM trigger_ticks WHERE NOT done AND lease_until <= clock_timestamp()
         ORDER BY lease_until LIMIT $1`,
      [limit],
    );
    return (rows as { trigger_id: string; tick: string }[]).map((row) => ({
      triggerId: row.trigger_id,
      tick: row.tick,
    }));
  }

  async reserveKey(options: {
    triggerId: string;
    key: string;
    runId: string;
    at: string;
  }): Promise<{ reserved: true } | { reserved: false; runId: string }> {
    const inserted = await this.query(
      `INSERT INTO trigger_keys (trigger_id, key, run_id, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (trigger_id, key) DO NOTHING RETURNING run_id`,
      [options.triggerId, options.key, options.runId, options.at],
      "write",
    );
    if (inserted.rows.length > 0) return { reserved: true };
    const { rows } = await this.query("SELECT run_id FROM trigger_keys WHERE trigger_id = $1 AND key = $2", [
      options.triggerId,
      options.key,
    ]);
    const held = rows[0] as { run_id: string } | undefined;
    // Released between the two statements: take it again.
    return held ? { reserved: false, runId: held.run_id } : this.reserveKey(options);
  }

  async releaseKey(options: { triggerId: string; key: string; runId: string }): Promise<void> {
    await this.query(
      "DELETE FROM trigger_keys WHERE trigger_id = $1 AND key = $2 AND run_id = $3",
      [options.triggerId, options.key, options.runId],
      "write",
    );
  }

  async prune(options: { before: string; keepFires: number }): Promise<void> {
    await this.query(
      `DELETE FROM trigger_ticks WHERE done AND tick < $1
         AND tick < (SELECT MAX(tick) FROM trigger_ticks AS latest WHERE latest.trigger_id = trigger_ticks.trigger_id)`,
      [options.before],
      "write",
    );
    await this.query("DELETE FROM trigger_keys WHERE created_at < $1", [options.before], "write");
    await this.query(
      `DELETE FROM trigger_fires WHERE position IN (SELECT position FROM (SELECT position, ROW_NUMBER() OVER
         (PARTITION BY trigger_id ORDER BY fired_at DESC, position DESC) AS rank FROM trigger_fires) AS ranked
         WHERE rank > $1)`,
      [options.keepFires],
      "write",
    );
  }
}
