import type { TaskTimers, WaitResult } from "./task-types.js";

type Status = WaitResult<unknown>["status"];

/** Promises waiting on a task or group id, each with its own timeout. */
export interface Waiters {
  add<T>(input: { key: string; timeoutMs: number; snapshot: () => T }): Promise<WaitResult<T>>;
  /** Settles every waiter on `key`. */
  resolve(key: string, status: Status): void;
  /** Settles every waiter as `cancelled`. */
  cancelAll(): void;
}

export function createWaiters(timers: TaskTimers): Waiters {
  const byKey = new Map<string, Set<(status: Status) => void>>();
  const settleAll = (key: string, status: Status): void => {
    for (const settle of [...(byKey.get(key) ?? [])]) settle(status);
  };
  return {
    add<T>(input: { key: string; timeoutMs: number; snapshot: () => T }): Promise<WaitResult<T>> {
      return new Promise((resolve) => {
        const entries = byKey.get(input.key) ?? new Set();
        byKey.set(input.key, entries);
        const settle = (status: Status): void => {
          timers.clearTimeout(timer);
          entries.delete(settle);
          if (entries.size === 0) byKey.delete(input.key);
          resolve({ status, snapshot: input.snapshot() });
        };
        const timer = timers.setTimeout(() => settle("timeout"), input.timeoutMs);
        entries.add(settle);
      });
    },
    resolve: settleAll,
    cancelAll() {
      for (const key of [...byKey.keys()]) settleAll(key, "cancelled");
    },
  };
}
