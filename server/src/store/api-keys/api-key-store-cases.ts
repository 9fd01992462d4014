import assert from "node:assert/strict";
import { withStore, type StoreConformanceCase } from "../store-claim-cases.js";
import type { StoredApiKey } from "./api-key-store.js";

const admin: StoredApiKey = {
  id: "k0000000001",
  name: "ops admin",
  role: "admin",
  agents: null,
  canDecide: false,
  rateLimit: null,
  expiresAt: null,
  createdAt: "2025-01-01T00:00:00.000Z",
  lastUsedAt: null,
  revokedAt: null,
  hash: "scrypt$16384$8$1$c2FsdA$aGFzaA",
};
const runner: StoredApiKey = {
  id: "k0000000002",
  name: "support bot",
  role: "runner",
  agents: ["alpha", "beta"],
  canDecide: true,
  canRelease: true,
  rateLimit: "60/min",
  expiresAt: "2030-01-01T00:00:00.000Z",
  createdAt: "2025-01-02T00:00:00.000Z",
  lastUsedAt: null,
  revokedAt: null,
  hash: "scrypt$16384$8$1$b3RoZXI$b3RoZXI",
};

/** API keys: kept as given, found by lookup id, revoked once, their last use recorded. */
export const apiKeyStoreCases: readonly StoreConformanceCase[] = [
  {
    name: "api keys: creates, lists oldest first, finds by lookup id, revokes once and records last use",
    run: (make) =>
      withStore(make, async (store) => {
        const keys = store.apiKeys;
        assert.deepEqual(await keys.list(), []);
        await keys.create(runner);
        await keys.create(admin);
        assert.deepEqual(await keys.list(), [admin, runner]);
        assert.deepEqual(await keys.get(runner.id), runner);
        assert.equal(await keys.get("k-none"), undefined);
        await assert.rejects(keys.create({ ...admin, name: "again" }));
        await keys.touch(admin.id, "2025-02-01T00:00:00.000Z");
        assert.equal((await keys.get(admin.id))?.lastUsedAt, "2025-02-01T00:00:00.000Z");
        assert.equal(await keys.revoke(runner.id, "2025-03-01T00:00:00.000Z"), true);
        assert.equal(await keys.revoke(runner.id, "2025-03-02T00:00:00.000Z"), false);
        assert.equal(await keys.revoke("k-none", "2025-03-02T00:00:00.000Z"), false);
        assert.equal((await keys.get(runner.id))?.revokedAt, "2025-03-01T00:00:00.000Z");
        assert.equal((await keys.list()).length, 2);
      }),
  },
];
