import assert from "node:assert/strict";
import { withStore, type StoreConformanceCase } from "../store-claim-cases.js";

/** A2A tasks: saved, replaced by id, read back as saved. */
export const a2aTaskCases: readonly StoreConformanceCase[] = [
  {
    name: "a2a tasks: a saved task reads back, a later save replaces it, an unknown id is undefined",
    run: (make) =>
      withStore(make, async (store) => {
        const tasks = store.a2aTasks;
        assert.equal(await tasks.get("task-1"), undefined);
        const first = {
          taskId: "task-1",
          agentId: "alpha",
          contextId: "ses_1",
          task: { id: "task-1", status: { state: "TASK_STATE_SUBMITTED" }, history: [{ text: "hi" }] },
          updatedAt: 1_000,
        };
        await tasks.save(first);
        assert.deepEqual(await tasks.get("task-1"), first);
        const second = { ...first, runId: "run_1", task: { id: "task-1", n: 2 }, updatedAt: 2_000 };
        await tasks.save(second);
        assert.deepEqual(await tasks.get("task-1"), second);
        assert.equal(await tasks.get("task-2"), undefined);
      }),
  },
];
