import type Database from "better-sqlite3";
import type { TestCase, TestRunRecord } from "@waddle/protocol";
import { DEFAULT_TEST_RUNS_LIMIT, type StoredTestSuite, type TestStore } from "./test-store.js";

/** Suites and test runs in the SQLite store (migration 12): one JSON row each. */
export class SqliteTestStore implements TestStore {
  constructor(private readonly db: Database.Database) {}

  async getSuite(agentId: string): Promise<StoredTestSuite | undefined> {
    const row = this.db
      .prepare("SELECT cases, updated_at FROM test_suites WHERE agent_id = ?")
      .get(agentId) as { cases: string; updated_at: string } | undefined;
    return row && { agentId, cases: JSON.parse(row.cases) as TestCase[], updatedAt: row.updated_at };
  }

  async putSuite(agentId: string, cases: readonly TestCase[]): Promise<StoredTestSuite> {
    const updatedAt = new Date().toISOString();
    this.db
      .prepare(
        `INSERT INTO test_suites (agent_id, cases, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (agent_id) DO UPDATE SET cases = excluded.cases, updated_at = excluded.updated_at`,
      )
      .run(agentId, JSON.stringify(cases), updatedAt);
    return { agentId, cases: structuredClone([...cases]), updatedAt };
  }

  async saveTestRun(record: TestRunRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO test_runs (id, agent_id, record, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET record = excluded.record`,
      )
      .run(record.id, record.agentId, JSON.stringify(record), record.createdAt);
  }

  async getTestRun(id: string): Promise<TestRunRecord | undefined> {
    const row = this.db.prepare("SELECT record FROM test_runs WHERE id = ?").get(id) as
      { record: string } | undefined;
    return row && (JSON.parse(row.record) as TestRunRecord);
  }

  async listTestRuns(agentId: string, limit = DEFAULT_TEST_RUNS_LIMIT): Promise<TestRunRecord[]> {
    const rows = this.db
      .prepare("SELECT record FROM test_runs WHERE agent_id = ? ORDER BY created_at DESC, id DESC LIMIT ?")
      .all(agentId, limit) as { record: string }[];
    return rows.map((row) => JSON.parse(row.record) as TestRunRecord);
  }
}
