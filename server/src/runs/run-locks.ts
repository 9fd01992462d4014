/**
 * One task at a time per run id, in call order. Cancel and resume each read a run's status and then change
 * it across several awaits; two of them on one run at once would both act on the same "paused".
 */
export class RunLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `task` once every earlier task for `runId` has settled; resolves or rejects as `task` does. */
  async run<T>(runId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(runId) ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(task);
    this.tails.set(runId, current);
    try {
      return await current;
    } finally {
      if (this.tails.get(runId) === current) this.tails.delete(runId);
    }
  }
}
