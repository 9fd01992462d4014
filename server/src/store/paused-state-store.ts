import type { SerializedPlannerState, StateStore } from "@waddle/planner";
import type { WaddleStore } from "./waddle-store.js";

/**
 * The planner's `StateStore` over a `WaddleStore`, so that paused runs survive restarts when the store is
 * SQLite. `runId` tags the saved rows with the run they belong to.
 */
export class PausedStateStore implements StateStore {
  constructor(
    private readonly store: WaddleStore,
    private readonly runId?: string,
    /** The epoch of the worker's claim on the run (queue mode): a save under a lost claim is refused. */
    private readonly fence?: number,
  ) {}

  save(token: string, state: SerializedPlannerState): Promise<void> {
    return this.store.savePausedState({
      token,
      state,
      ...(this.runId ? { runId: this.runId } : {}),
      ...(this.fence === undefined ? {} : { fence: this.fence }),
    });
  }

  load(token: string): Promise<SerializedPlannerState | undefined> {
    return this.store.loadPausedState(token);
  }

  delete(token: string): Promise<void> {
    return this.store.deletePausedState(token);
  }
}
