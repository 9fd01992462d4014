import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { applySqliteMigrations } from "../apply-sqlite-migrations.js";
import { revertSqliteMigrations } from "../sqlite-migration-revert.js";
import { SQLITE_MIGRATIONS } from "../sqlite-migrations.js";
import { SQLITE_WEBHOOKS_MIGRATION } from "./webhook-migrations.js";

const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[])
    .map((row) => row.name)
    .filter((name) => name.startsWith("webhook"));

describe("the webhooks migration (SQLite 21)", () => {
  it("is in the list, and its down takes its three tables out and lets it apply again", () => {
    expect(SQLITE_MIGRATIONS).toContain(SQLITE_WEBHOOKS_MIGRATION);
    const migrations = SQLITE_MIGRATIONS.filter((migration) => migration.id <= 21);
    const db = new Database(":memory:");
    db.pragma("foreign_keys = ON");
    applySqliteMigrations(db, migrations);
    expect(tables(db).sort()).toEqual(["webhook_deliveries", "webhook_outbox", "webhooks"]);
    db.prepare(
      `INSERT INTO webhooks VALUES ('whk_1', 'https://x.example', '[]', NULL, 'json', 1, 's', 'a', 'ops', 'a')`,
    ).run();
    const reverted = revertSqliteMigrations(db, { toId: 20, migrations });
    expect(reverted.map((migration) => migration.id)).toEqual([21]);
    expect(tables(db)).toEqual([]);
    expect(applySqliteMigrations(db, migrations)).toBe(1);
    expect(tables(db).sort()).toEqual(["webhook_deliveries", "webhook_outbox", "webhooks"]);
    db.close();
  });
});
