import type { TestCase, TestRunRecord } from "@waddle/protocol";

/** An agent's saved suite. */
export interface StoredTestSuite {
  agentId: string;
  cases: TestCase[];
  updatedAt: string;
}

/**
 * Tests from runs: each agent's suite (saved whole) and its test runs (each a whole record, rewritten as
 * its cases end). SQLite, PostgreSQL and in-memory, under one conformance suite (`testStoreCases`).
 */
export interface TestStore {
  getSuite(agentId: string): Promise<StoredTestSuite | undefined>;
  /** Replaces the agent's suite. */
  putSuite(agentId: string, cases: readonly TestCase[]): Promise<StoredTestSuite>;
  /** Saves a test run's record, new or changed. */
  saveTestRun(record: TestRunRecord): Promise<void>;
  getTestRun(id: string): Promise<TestRunRecord | undefined>;
  /** The agent's test runs, newest first, at most `limit` (default 50). */
  listTestRuns(agentId: string, limit?: number): Promise<TestRunRecord[]>;
}

export const DEFAULT_TEST_RUNS_LIMIT = 50;
