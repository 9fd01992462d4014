interface Entry {
  at: number;
  fire: () => void;
}

/**
 * One timer for every pending timeout in the process. Arming and clearing a Node timer per tool call is a
 * noticeable share of a step; here a call only adds and removes a Set entry, the timer is re-armed only
 * for an earlier deadline, and it is unref'd while nothing waits so that it never holds the process open.
 */
export class TimeoutScheduler {
  private readonly entries = new Set<Entry>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private armedAt = Infinity;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Calls `fire` after `ms` unless `cancel` is called first. */
  schedule(ms: number, fire: () => void): () => void {
    const entry: Entry = { at: this.now() + Math.max(0, ms), fire };
    this.entries.add(entry);
    if (entry.at < this.armedAt) this.arm(entry.at);
    else if (this.entries.size === 1) this.timer?.ref();
    return () => {
      this.entries.delete(entry);
      if (this.entries.size === 0) this.timer?.unref();
    };
  }

  get pending(): number {
    return this.entries.size;
  }

  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.armedAt = at;
    this.timer = setTimeout(() => this.tick(), Math.max(0, at - this.now()));
  }

  private tick(): void {
    this.timer = undefined;
    this.armedAt = Infinity;
    const now = this.now();
    let next = Infinity;
    for (const entry of [...this.entries]) {
      if (entry.at <= now) {
        this.entries.delete(entry);
        entry.fire();
      } else if (entry.at < next) next = entry.at;
    }
    if (next !== Infinity && this.entries.size > 0) this.arm(next);
  }
}

/** The scheduler shared by every run in this process. */
export const sharedTimeouts = new TimeoutScheduler();
