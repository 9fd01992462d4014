import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMissingPartsReason } from "../../testing/real-parts.js";
import { startTestPostgres, type TestPostgres } from "../../testing/start-postgres.js";
import { PgStore } from "../pg-store.js";

const skip = getMissingPartsReason(["postgres"]);

describe.skipIf(skip)("audit_log on PostgreSQL", () => {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await startTestPostgres();
  });
  afterAll(() => postgres?.destroy());

  it("refuses UPDATE and DELETE of its rows, whoever sends them", async () => {
    const url = await postgres.createDatabase();
    const store = await PgStore.open({ connectionString: url });
    const client = new pg.Client({ connectionString: url });
    try {
      await store.audit.append({
        id: "aud_1",
        at: new Date().toISOString(),
        actor: "alice",
        actorKeyId: null,
        action: "agent.deleted",
        target: { type: "agent", id: "a" },
        details: {},
      });
      await client.connect();
      await expect(client.query("UPDATE audit_log SET actor = 'mallory'")).rejects.toThrow(/append-only/);
      await expect(client.query("DELETE FROM audit_log")).rejects.toThrow(/append-only/);
      expect((await store.audit.list({ limit: 10 })).map((entry) => entry.actor)).toEqual(["alice"]);
    } finally {
      await client.end().catch(() => undefined);
      await store.close();
    }
  });
});
