import type pg from "pg";
import { describe, expect, it } from "vitest";
import { insertPgRow } from "./insert-pg-row.js";

/** A `Query` that records what it was asked to run. */
function createRecordingQuery() {
  const calls: { text: string; params?: unknown[] }[] = [];
  const query = async (text: string, params?: unknown[]) => {
    calls.push({ text, params });
    return { rows: [], rowCount: 1 } as unknown as pg.QueryResult;
  };
  return { calls, query };
}

describe("insertPgRow", () => {
  it("numbers one parameter a column, in the row's order", async () => {
    const { calls, query } = createRecordingQuery();
    await insertPgRow(query, "tasks", { run_id: "r", task_id: "t", record: "{}" });
    expect(calls).toEqual([
      { text: "INSERT INTO tasks (run_id, task_id, record) VALUES ($1, $2, $3)", params: ["r", "t", "{}"] },
    ]);
  });

  it("replaces a row with the same key by updating every other column", async () => {
    const { calls, query } = createRecordingQuery();
    await insertPgRow(
      query,
      "paused_states",
      { token: "k", run_id: null, state: "{}", created_at: "now" },
      {
        replaceOn: ["token"],
      },
    );
    expect(calls[0]!.text).toBe(
      "INSERT INTO paused_states (token, run_id, state, created_at) VALUES ($1, $2, $3, $4)" +
        " ON CONFLICT (token) DO UPDATE SET run_id = EXCLUDED.run_id, state = EXCLUDED.state," +
        " created_at = EXCLUDED.created_at",
    );
  });
});
