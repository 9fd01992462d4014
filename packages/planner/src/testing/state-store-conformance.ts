import assert from "node:assert/strict";
import type { SerializedPlannerState } from "../run/paused-state.js";
import type { StateStore } from "../pause/state-store.js";

/** One behaviour every `StateStore` must have; `run` throws (node:assert) when it does not. */
export interface StateStoreConformanceCase {
  name: string;
  run(makeStore: () => StateStore | Promise<StateStore>): Promise<void>;
}

const nested: SerializedPlannerState = {
  query: "find the report",
  steps: [
    { next_node: "search", args: { q: "report", limit: 3 }, observation: { hits: [1, 2.5, -3], ok: true } },
    { next_node: "fetch", args: {}, failure: { error_code: "tool_timeout", message: "slow", node: null } },
  ],
  counters: { iterations: 2, tokens: 1234, cost: 0.0042 },
  flags: { paused: true, approved: false },
  empty: { list: [], object: {} },
  deep: { a: { b: { c: { d: { e: { f: { g: { h: "bottom" } } } } } } } },
};

/**
 * The shared conformance suite of `StateStore` (no test-runner import, so any runner can use it):
 * `for (const c of stateStoreConformanceCases) it(c.name, () => c.run(() => createStore()))`.
 */
export const stateStoreConformanceCases: readonly StateStoreConformanceCase[] = [
  {
    name: "round-trips nested JSON state",
    async run(makeStore) {
      const store = await makeStore();
      await store.save("token-nested", nested);
      assert.deepEqual(await store.load("token-nested"), nested);
    },
  },
  {
    name: "answers undefined for an unknown token",
    async run(makeStore) {
      const store = await makeStore();
      assert.equal(await store.load("never-saved"), undefined);
    },
  },
  {
    name: "deletes a state, and deleting an unknown token is not an error",
    async run(makeStore) {
      const store = await makeStore();
      await store.save("token-delete", { a: 1 });
      await store.delete("token-delete");
      assert.equal(await store.load("token-delete"), undefined);
      await store.delete("token-delete");
      await store.delete("never-saved");
    },
  },
  {
    name: "overwrites the state saved under the same token",
    async run(makeStore) {
      const store = await makeStore();
      await store.save("token-overwrite", { version: 1, only: "first" });
      await store.save("token-overwrite", { version: 2 });
      assert.deepEqual(await store.load("token-overwrite"), { version: 2 });
    },
  },
  {
    name: "keeps tokens isolated",
    async run(makeStore) {
      const store = await makeStore();
      await store.save("token-a", { owner: "a" });
      await store.save("token-b", { owner: "b" });
      await store.delete("token-a");
      assert.equal(await store.load("token-a"), undefined);
      assert.deepEqual(await store.load("token-b"), { owner: "b" });
    },
  },
  {
    name: "stores copies: mutating a saved or loaded value changes nothing",
    async run(makeStore) {
      const store = await makeStore();
      const state = { list: [1, 2], inner: { value: "original" } };
      await store.save("token-copy", state);
      state.list.push(3);
      state.inner.value = "mutated after save";
      const loaded = (await store.load("token-copy")) as typeof state;
      assert.deepEqual(loaded, { list: [1, 2], inner: { value: "original" } });
      loaded.inner.value = "mutated after load";
      assert.deepEqual(await store.load("token-copy"), { list: [1, 2], inner: { value: "original" } });
    },
  },
  {
    name: "holds many tokens at once",
    async run(makeStore) {
      const store = await makeStore();
      const count = 250;
      for (let index = 0; index < count; index += 1) await store.save(`token-many-${index}`, { index });
      for (let index = 0; index < count; index += 1) {
        assert.deepEqual(await store.load(`token-many-${index}`), { index });
      }
    },
  },
  {
    name: "keeps unicode text and keys intact",
    async run(makeStore) {
      const store = await makeStore();
      const state = {
        text: "naïve café — 日本語 — עברית — emoji 🐧👩🏽‍💻 — \u0000 nul and \u2028 separator",
        "ключ 🔑": ["ünïcödé", "😀"],
        quotes: `'single' "double" \\backslash\\ \n newline \t tab`,
      };
      await store.save("token-ünïcode-🐧", state);
      assert.deepEqual(await store.load("token-ünïcode-🐧"), state);
    },
  },
  {
    name: "keeps large states",
    async run(makeStore) {
      const store = await makeStore();
      const state = { blob: "x".repeat(500_000), rows: Array.from({ length: 2_000 }, (_, row) => ({ row })) };
      await store.save("token-large", state);
      assert.deepEqual(await store.load("token-large"), state);
    },
  },
];

/** Runs every conformance case in order against fresh stores from `makeStore`. */
export async function runStateStoreConformance(
  makeStore: () => StateStore | Promise<StateStore>,
): Promise<void> {
  for (const conformanceCase of stateStoreConformanceCases) {
    try {
      await conformanceCase.run(makeStore);
    } catch (error) {
      throw new Error(`StateStore conformance failed: ${conformanceCase.name}`, { cause: error });
    }
  }
}
