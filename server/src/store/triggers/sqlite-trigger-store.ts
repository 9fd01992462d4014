import type Database from "better-sqlite3";
import type { TriggerKind } from "@waddle/protocol";
import { StoreError } from "../waddle-store.js";
import { writeTransaction } from "../sqlite-write-transaction.js";
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
  .map(() => "?")
  .join(", ");

/** Triggers in the SQLite store (migration 22); leases on this process's clock. */
export class SqliteTriggerStore implements TriggerStore {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  async create(trigger: TriggerRecord): Promise<TriggerRecord> {
    try {
      this.sql(`INSERT INTO triggers (${TRIGGER_COLUMNS}) VALUES (${PLACEHOLDERS})`).run(
        ...toTriggerValues(trigger, "number"),
      );
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_CONSTRAINT_PRIMARYKEY") throw error;
      throw new StoreError("conflict", `Trigger "${trigger.id}" already exists.`, { id: trigger.id });
    }
    return structuredClone(trigger);
  }

  async get(id: string): Promise<TriggerRecord | undefined> {
    const row = this.sql("SELECT * FROM triggers WHERE id = ?").get(id);
    return row === undefined ? undefined : toTriggerRecord(row);
  }

  async list(
    options: { agentId?: string; kind?: TriggerKind; enabled?: boolean } = {},
  ): Promise<TriggerRecord[]> {
    const rows = this.sql(
      `SELECT * FROM triggers WHERE (@agentId IS NULL OR agent_id = @agentId)
         AND (@kind IS NULL OR kind = @kind) AND (@enabled IS NULL OR enabled = @enabled) ORDER BY rowid`,
    ).all({
      agentId: options.agentId ?? null,
      kind: options.kind ?? null,
      enabled: options.enabled === undefined ? null : Number(options.enabled),
    });
    return rows.map(toTriggerRecord);
  }

  async replace(trigger: TriggerRecord): Promise<TriggerRecord> {
    const [, , kind, name, enabled, settings, secret, , , updatedAt, lastFiredAt] = toTriggerValues(
      trigger,
      "number",
    );
    const changed = this.sql(
      `UPDATE triggers SET kind = ?, name = ?, enabled = ?, settings = ?, secret = ?, updated_at = ?,
         last_fired_at = ? WHERE id = ?`,
    ).run(kind, name, enabled, settings, secret, updatedAt, lastFiredAt, trigger.id);
    if (changed.changes === 0) {
      throw new StoreError("not_found", `Trigger "${trigger.id}" does not exist.`, { id: trigger.id });
    }
    return (await this.get(trigger.id))!;
  }

  async markFired(id: string, at: string): Promise<void> {
    this.sql(
      "UPDATE triggers SET last_fired_at = ? WHERE id = ? AND (last_fired_at IS NULL OR last_fired_at < ?)",
    ).run(at, id, at);
  }

  async delete(id: string): Promise<boolean> {
    return writeTransaction(this.db, () => {
      for (const table of ["trigger_fires", "trigger_ticks", "trigger_keys"]) {
        this.sql(`DELETE FROM ${table} WHERE trigger_id = ?`).run(id);
      }
      return this.sql("DELETE FROM triggers WHERE id = ?").run(id).changes > 0;
    })();
  }

  async deleteAgent(agentId: string): Promise<number> {
    const ids = this.sql("SELECT id FROM triggers WHERE agent_id = ?").all(agentId) as { id: string }[];
    for (const { id } of ids) await this.delete(id);
    return ids.length;
  }

  async saveFire(fire: StoredFire): Promise<void> {
    this.sql(
      `INSERT INTO trigger_fires (${FIRE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET fired_at = excluded.fired_at, status = excluded.status,
           run_id = excluded.run_id, error = excluded.error`,
    ).run(...toFireValues(fire));
  }

  async getFire(id: string): Promise<StoredFire | undefined> {
    const row = this.sql("SELECT * FROM trigger_fires WHERE id = ?").get(id);
    return row === undefined ? undefined : toStoredFire(row);
  }

  async listFires(
    triggerId: string,
    options: { limit?: number; before?: string; statuses?: readonly StoredFire["status"][] } = {},
  ): Promise<StoredFire[]> {
    const statuses = options.statuses ?? [];
    const rows = this.db
      .prepare(
        `SELECT * FROM trigger_fires WHERE trigger_id = ? AND (? IS NULL OR fired_at < ?)
           ${statuses.length ? `AND status IN (${statuses.map(() => "?").join(", ")})` : ""}
           ORDER BY fired_at DESC, rowid DESC LIMIT ?`,
      )
      .all(triggerId, options.before ?? null, options.before ?? null, ...statuses, options.limit ?? -1);
    return rows.map(toStoredFire);
  }

  async listQueuedFires(limit = 100): Promise<StoredFire[]> {
    const rows = this.sql(
      "SELECT * FROM trigger_fires WHERE status = 'queued' ORDER BY fired_at, rowid LIMIT ?",
    ).all(limit);
    return rows.map(toStoredFire);
  }

  async claimTick(options: {
    triggerId: string;
    tick: string;
    owner: string;
    leaseMs: number;
  }): Promise<boolean> {
    const now = Date.now();
    const row = this.sql(
      `INSERT INTO trigger_ticks (trigger_id, tick, owner, lease_until, done) VALUES (?, ?, ?, ?, 0)
         ON CONFLICT (trigger_id, tick) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
         WHERE trigger_ticks.done = 0 AND trigger_ticks.lease_until <= ?
         RETURNING owner`,
    ).get(options.triggerId, options.tick, options.owner, now + options.leaseMs, now);
    return row !== undefined;
  }

  async finishTick(options: { triggerId: string; tick: string; owner: string }): Promise<void> {
    this.sql("UPDATE trigger_ticks SET done = 1 WHERE trigger_id = ? AND tick = ? AND owner = ?").run(
      options.triggerId,
      options.tick,
      options.owner,
    );
  }

  async listLapsedTicks(limit = 100): Promise<LapsedTick[]> {
    const rows = this.sql(
      `SELECT trigger_id, tick FROM trigger_ticks WHERE done = 0 AND lease_until <= ?
         ORDER BY lease_until LIMIT ?`,
    ).all(Date.now(), limit) as { trigger_id: string; tick: string }[];
    return rows.map((row) => ({ triggerId: row.trigger_id, tick: row.tick }));
  }

  async reserveKey(options: {
    triggerId: string;
    key: string;
    runId: string;
    at: string;
  }): Promise<{ reserved: true } | { reserved: false; runId: string }> {
    const inserted = this.sql(
      `INSERT INTO trigger_keys (trigger_id, key, run_id, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (trigger_id, key) DO NOTHING`,
    ).run(options.triggerId, options.key, options.runId, options.at);
    if (inserted.changes === 1) return { reserved: true };
    const row = this.sql("SELECT run_id FROM trigger_keys WHERE trigger_id = ? AND key = ?").get(
      options.triggerId,
      options.key,
    ) as { run_id: string } | undefined;
    // Released between the two statements: take it again.
    return row ? { reserved: false, runId: row.run_id } : this.reserveKey(options);
  }

  async releaseKey(options: { triggerId: string; key: string; runId: string }): Promise<void> {
    this.sql("DELETE FROM trigger_keys WHERE trigger_id = ? AND key = ? AND run_id = ?").run(
      options.triggerId,
      options.key,
      options.runId,
    );
  }

  async prune(options: { before: string; keepFires: number }): Promise<void> {
    writeTransaction(this.db, () => {
      this.sql(
        `DELETE FROM trigger_ticks WHERE done = 1 AND tick < ?
           AND tick < (SELECT MAX(tick) FROM trigger_ticks AS latest WHERE latest.trigger_id = trigger_ticks.trigger_id)`,
      ).run(options.before);
      this.sql("DELETE FROM trigger_keys WHERE created_at < ?").run(options.before);
      this.sql(
        `DELETE FROM trigger_fires WHERE rowid IN (SELECT rowid FROM (SELECT rowid, ROW_NUMBER() OVER
           (PARTITION BY trigger_id ORDER BY fired_at DESC, rowid DESC) AS rank FROM trigger_fires) WHERE rank > ?)`,
      ).run(options.keepFires);
    })();
  }

  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }
}
