import type { SerializedPlannerState } from "../run/paused-state.js";
import type { StateStore } from "./state-store.js";

/**
 * A `StateStore` in process memory, for tests, the CLI and single-process use. Values are kept as JSON
 * text, exactly as a database store would keep them: what is saved is a copy, what is loaded is a fresh
 * copy, and state that does not survive JSON behaves here as it would in production.
 */
export class InMemoryStateStore implements StateStore {
  private readonly entries = new Map<string, string>();

  save(token: string, state: SerializedPlannerState): Promise<void> {
    this.entries.set(token, JSON.stringify(state));
    return Promise.resolve();
  }

  load(token: string): Promise<SerializedPlannerState | undefined> {
    const text = this.entries.get(token);
    return Promise.resolve(text === undefined ? undefined : (JSON.parse(text) as SerializedPlannerState));
  }

  delete(token: string): Promise<void> {
    this.entries.delete(token);
    return Promise.resolve();
  }

  /** How many paused states are held. */
  get size(): number {
    return this.entries.size;
  }
}
