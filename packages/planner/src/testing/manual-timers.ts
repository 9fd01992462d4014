import type { TaskTimers } from "../tasks/task-types.js";

/** Timers that fire only when a test says so (`fire(ms)`), for timeouts without timed assertions. */
export class ManualTimers implements TaskTimers {
  private nextId = 1;
  /** Timers not yet fired or cleared, by handle. */
  readonly pending = new Map<number, { callback: () => void; ms: number }>();

  setTimeout(callback: () => void, ms: number): number {
    this.pending.set(this.nextId, { callback, ms });
    return this.nextId++;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Fires every pending timer set for exactly `ms` milliseconds. */
  fire(ms: number): void {
    for (const [id, timer] of [...this.pending]) {
      if (timer.ms !== ms) continue;
      this.pending.delete(id);
      timer.callback();
    }
  }
}
