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
  {
    name: "a2a tasks: list gives an agent's tasks (of one context if asked), the last saved first, at most limit",
    run: (make) =>
      withStore(make, async (store) => {
        const tasks = store.a2aTasks;
        const task = (taskId: string, agentId: string, contextId: string, updatedAt: number) => ({
          taskId,
          agentId,
          contextId,
          task: { id: taskId },
          updatedAt,
        });
        await tasks.save(task("t-1", "alpha", "ses_a", 1_000));
        await tasks.save(task("t-2", "alpha", "ses_b", 3_000));
        await tasks.save(task("t-3", "beta", "ses_a", 4_000));
        await tasks.save(task("t-4", "alpha", "ses_a", 2_000));
        await tasks.save(task("t-5", "alpha", "ses_a", 2_000));
        const ids = (records: { taskId: string }[]) => records.map((record) => record.taskId);
        assert.deepEqual(ids(await tasks.list({ agentId: "alpha", limit: 10 })), [
          "t-2",
          "t-5",
          "t-4",
          "t-1",
        ]);
        assert.deepEqual(ids(await tasks.list({ agentId: "alpha", limit: 2 })), ["t-2", "t-5"]);
        assert.deepEqual(ids(await tasks.list({ agentId: "alpha", contextId: "ses_a", limit: 10 })), [
          "t-5",
          "t-4",
          "t-1",
        ]);
        assert.deepEqual(await tasks.list({ agentId: "gamma", limit: 10 }), []);
        assert.deepEqual(
          (await tasks.list({ agentId: "beta", limit: 10 }))[0],
          task("t-3", "beta", "ses_a", 4_000),
        );
      }),
  },
];
