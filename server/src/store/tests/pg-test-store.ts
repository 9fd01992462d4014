import type { TestCase, TestRunRecord } from "@waddle/protocol";
import type { PgQuery } from "../request-keys/pg-request-key-store.js";
import { DEFAULT_TEST_RUNS_LIMIT, type StoredTestSuite, type TestStore } from "./test-store.js";

/** Suites and test runs in the PostgreSQL store (migration 9), as in SQLite. */
export class PgTestStore implements TestStore {
  constructor(private readonly query: PgQuery) {}

  async getSuite(agentId: string): Promise<StoredTestSuite | undefined> {
    const { rows } = await this.query("SELECT cases, updated_at FROM test_suites WHERE agent_id = $1", [
      agentId,
    ]);
    const row = rows[0] as { cases: string; updated_at: string } | undefined;
    return row && { agentId, cases: JSON.parse(row.cases) as TestCase[], updatedAt: row.updated_at };
  }

  async putSuite(agentId: string, cases: readonly TestCase[]): Promise<StoredTestSuite> {
    const updatedAt = new Date().toISOString();
    await this.query(
      `INSERT INTO test_suites (agent_id, cases, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (agent_id) DO UPDATE SET cases = EXCLUDED.cases, updated_at = EXCLUDED.updated_at`,
      [agentId, JSON.stringify(cases), updatedAt],
      "write",
    );
    return { agentId, cases: structuredClone([...cases]), updatedAt };
  }

  async saveTestRun(record: TestRunRecord): Promise<void> {
    await this.query(
      `INSERT INTO test_runs (id, agent_id, record, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET record = EXCLUDED.record`,
      [record.id, record.agentId, JSON.stringify(record), record.createdAt],
      "write",
    );
  }

  async getTestRun(id: string): Promise<TestRunRecord | undefined> {
    const { rows } = await this.query("SELECT record FROM test_runs WHERE id = $1", [id]);
    const row = rows[0] as { record: string } | undefined;
    return row && (JSON.parse(row.record) as TestRunRecord);
  }

  async listTestRuns(agentId: string, limit = DEFAULT_TEST_RUNS_LIMIT): Promise<TestRunRecord[]> {
    const { rows } = await this.query(
      "SELECT record FROM test_runs WHERE agent_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
      [agentId, limit],
    );
    return (rows as { record: string }[]).map((row) => JSON.parse(row.record) as TestRunRecord);
  }
}
