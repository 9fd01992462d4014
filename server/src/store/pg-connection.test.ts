import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMissingPartsReason } from "../testing/real-parts.js";
import { startTestPostgres, type TestPostgres } from "../testing/start-postgres.js";
import { PgConnection } from "./pg-connection.js";

const skip = getMissingPartsReason(["postgres"]);

describe.skipIf(skip)("PgConnection on a real PostgreSQL", () => {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await startTestPostgres();
  });
  afterAll(() => postgres?.destroy());

  it("survives the server ending a transaction's connection between two queries, and retries the transaction", async () => {
    const connection = new PgConnection({
      connectionString: await postgres.createDatabase(),
      idleInTransactionMs: 200,
    });
    try {
      await connection.query("CREATE TABLE notes (text text NOT NULL)", [], "write");
      const attempts: number[] = [];
      const result = await connection.transaction("write", async (query, attempt) => {
        attempts.push(attempt);
        await query("INSERT INTO notes (text) VALUES ($1)", [`attempt ${attempt}`]);
        // The first attempt idles in its transaction past the server's limit, as a paused process
        // would: PostgreSQL ends the connection while no query is waiting on it.
        if (attempt === 0) await sleep(1_000);
        return (await query("SELECT count(*)::int AS n FROM notes")).rows[0] as { n: number };
      });
      expect(attempts).toEqual([0, 1]);
      expect(result).toEqual({ n: 1 });
      const { rows } = await connection.query("SELECT text FROM notes");
      expect(rows).toEqual([{ text: "attempt 1" }]);
    } finally {
      await connection.close();
    }
  });
});
