import assert from "node:assert/strict";
import { withStore, type StoreConformanceCase } from "../store-claim-cases.js";

const HOUR = 3_600_000;

/** Request keys: reserved once, naming their run, scoped, expiring; one of concurrent reservations wins. */
export const requestKeyCases: readonly StoreConformanceCase[] = [
  {
    name: "request keys: the first reservation holds the key; later ones read its fingerprint and run",
    run: (make) =>
      withStore(make, async (store) => {
        const keys = store.requestKeys;
        const entry = { scope: "v1:caller", key: "key-1", fingerprint: "fp-a", ttlMs: HOUR, now: 1_000 };
        assert.deepEqual(await keys.reserve(entry), { reserved: true });
        const pending = await keys.reserve({ ...entry, fingerprint: "fp-b", now: 2_000 });
        assert.equal(pending.reserved, false);
        if (pending.reserved) return;
        assert.equal(pending.record.fingerprint, "fp-a");
        assert.equal(pending.record.runId, undefined);
        assert.equal(pending.record.expiresAt, 1_000 + HOUR);
        await keys.setRun({ scope: "v1:caller", key: "key-1", runId: "run-1" });
        const held = await keys.get({ scope: "v1:caller", key: "key-1" });
        assert.deepEqual(held, {
          scope: "v1:caller",
          key: "key-1",
          fingerprint: "fp-a",
          runId: "run-1",
          createdAt: 1_000,
          expiresAt: 1_000 + HOUR,
        });
        // Another scope (another caller or endpoint) has keys of its own.
        assert.deepEqual(await keys.reserve({ ...entry, scope: "mcp:caller" }), { reserved: true });
        await keys.release({ scope: "v1:caller", key: "key-1" });
        assert.equal(await keys.get({ scope: "v1:caller", key: "key-1" }), undefined);
        assert.deepEqual(await keys.reserve(entry), { reserved: true });
      }),
  },
  {
    name: "request keys: an expired key is taken anew and expired keys are forgotten",
    run: (make) =>
      withStore(make, async (store) => {
        const keys = store.requestKeys;
        const entry = { scope: "v1:caller", key: "old", fingerprint: "fp-a", ttlMs: 100, now: 1_000 };
        assert.deepEqual(await keys.reserve(entry), { reserved: true });
        await keys.reserve({ ...entry, key: "other", now: 1_000 });
        await keys.setRun({ scope: "v1:caller", key: "old", runId: "run-old" });
        assert.equal((await keys.reserve({ ...entry, now: 1_099 })).reserved, false);
        assert.deepEqual(await keys.reserve({ ...entry, fingerprint: "fp-b", now: 1_100 }), {
          reserved: true,
        });
        const renewed = await keys.get({ scope: "v1:caller", key: "old" });
        assert.equal(renewed?.fingerprint, "fp-b");
        assert.equal(renewed?.runId, undefined);
        assert.equal(await keys.get({ scope: "v1:caller", key: "other" }), undefined);
      }),
  },
  {
    name: "request keys: one of concurrent reservations of a key wins",
    run: (make) =>
      withStore(make, async (store) => {
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, index) =>
            store.requestKeys.reserve({
              scope: "v1:caller",
              key: "race",
              fingerprint: `fp-${index}`,
              ttlMs: HOUR,
            }),
          ),
        );
        assert.equal(results.filter((result) => result.reserved).length, 1);
      }),
  },
];
