import type { TestCase, TestRunRecord } from "@waddle/protocol";
import { DEFAULT_TEST_RUNS_LIMIT, type StoredTestSuite, type TestStore } from "./test-store.js";

/** Suites and test runs in memory (copies in and out, as the other stores give). */
export class MemoryTestStore implements TestStore {
  private readonly suites = new Map<string, StoredTestSuite>();
  private readonly testRuns = new Map<string, TestRunRecord>();

  async getSuite(agentId: string): Promise<StoredTestSuite | undefined> {
    const suite = this.suites.get(agentId);
    return suite && structuredClone(suite);
  }

  async putSuite(agentId: string, cases: readonly TestCase[]): Promise<StoredTestSuite> {
    const suite = { agentId, cases: structuredClone([...cases]), updatedAt: new Date().toISOString() };
    this.suites.set(agentId, suite);
    return structuredClone(suite);
  }

  async saveTestRun(record: TestRunRecord): Promise<void> {
    this.testRuns.delete(record.id);
    this.testRuns.set(record.id, structuredClone(record));
  }

  async getTestRun(id: string): Promise<TestRunRecord | undefined> {
    const record = this.testRuns.get(id);
    return record && structuredClone(record);
  }

  async listTestRuns(agentId: string, limit = DEFAULT_TEST_RUNS_LIMIT): Promise<TestRunRecord[]> {
    return [...this.testRuns.values()]
      .filter((record) => record.agentId === agentId)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id))
      .slice(0, limit)
      .map((record) => structuredClone(record));
  }
}
