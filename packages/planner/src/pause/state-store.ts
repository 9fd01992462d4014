import type { SerializedPlannerState } from "../run/paused-state.js";

/**
 * Where paused runs wait. `save` under a resume token, `load` it back (undefined when unknown), `delete`
 * once used. Implementations: `InMemoryStateStore` here, SQLite in the server; one conformance suite
 * (`runStateStoreConformance` from `@waddle/planner/testing`) for all.
 */
export interface StateStore {
  save(token: string, state: SerializedPlannerState): Promise<void>;
  load(token: string): Promise<SerializedPlannerState | undefined>;
  delete(token: string): Promise<void>;
}
