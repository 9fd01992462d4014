import type { TestRunRecord } from "@waddle/protocol";

type Waiter = (record: TestRunRecord) => void;

/**
 * Tells who waits for a test run when it ends: the test-run service's `onUpdate` feeds `notify`, and a
 * release's gate waits with `waitForEnd` (the service drives a test run in the process that started it).
 */
export class TestRunEnds {
  private readonly waiters = new Map<string, Set<Waiter>>();

  notify(record: TestRunRecord): void {
    if (record.status === "running") return;
    const waiting = this.waiters.get(record.id);
    this.waiters.delete(record.id);
    for (const waiter of waiting ?? []) waiter(record);
  }

  /** Resolves with the record once it is not `running`; `read` gives the record as stored now. */
  waitForEnd(testRunId: string, read: () => Promise<TestRunRecord>): Promise<TestRunRecord> {
    return new Promise((resolve, reject) => {
      const waiting = this.waiters.get(testRunId) ?? new Set<Waiter>();
      waiting.add(resolve);
      this.waiters.set(testRunId, waiting);
      read().then((record) => {
        if (record.status === "running") return;
        waiting.delete(resolve);
        resolve(record);
      }, reject);
    });
  }
}
