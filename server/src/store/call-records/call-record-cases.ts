import assert from "node:assert/strict";
import type { CallRecord } from "@waddle/planner";
import { withStore, type StoreConformanceCase } from "../store-claim-cases.js";

const step = (index: number, reply?: string): CallRecord => ({
  kind: "step",
  step: {
    index,
    next_node: "lookup",
    args: { id: index },
    source: "llm",
    startedAt: 1,
    durationMs: 2,
    observation: { ok: index },
  },
  ...(reply === undefined ? {} : { reply }),
});

/** Call records: appended in order per run, across several appends, and read back as written. */
export const callRecordCases: readonly StoreConformanceCase[] = [
  {
    name: "call records: appends keep their order per run and read back as written",
    run: (make) =>
      withStore(make, async (store) => {
        const records = store.callRecords;
        assert.deepEqual(await records.list("run-a"), []);
        const llm: CallRecord = {
          kind: "llm",
          step: 0,
          key: "k1",
          purpose: "plan",
          result: { content: "{}" },
        };
        const tool: CallRecord = {
          kind: "tool",
          step: 0,
          tool: "lookup",
          sideEffects: "read",
          args: { id: 0 },
          observation: { ok: 0, nested: [1, { a: null }] },
        };
        await records.append("run-a", [llm, tool, step(0, '{"next_node":"lookup"}')]);
        await records.append("run-b", [step(5)]);
        await records.append("run-a", [step(1)]);
        await records.append("run-a", []);
        assert.deepEqual(await records.list("run-a"), [
          llm,
          tool,
          step(0, '{"next_node":"lookup"}'),
          step(1),
        ]);
        assert.deepEqual(await records.list("run-b"), [step(5)]);
      }),
  },
];
