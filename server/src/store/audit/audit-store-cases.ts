import assert from "node:assert/strict";
import type { AuditEntry } from "@waddle/protocol";
import { withStore, type StoreConformanceCase } from "../store-claim-cases.js";

function entry(index: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: `aud_${index}`,
    at: new Date(Date.UTC(2026, 10, 27, 1, 0, index)).toISOString(),
    actor: index % 2 === 0 ? "alice" : "bob",
    actorKeyId: index % 2 === 0 ? "key_alice" : null,
    action: index % 3 === 0 ? "agent.saved" : "run.started",
    target: { type: "agent", id: `agent-${index}` },
    details: { version: index, nested: { ok: true } },
    ...overrides,
  };
}

/** The audit log: appended entries read back whole, newest first, filtered by time, actor and action. */
export const auditStoreCases: readonly StoreConformanceCase[] = [
  {
    name: "audit log: entries read back whole, newest first, filtered by since, actor and action",
    run: (make) =>
      withStore(make, async (store) => {
        const audit = store.audit;
        assert.deepEqual(await audit.list({ limit: 10 }), []);
        for (let index = 1; index <= 6; index += 1) await audit.append(entry(index));
        await audit.append(entry(7, { ip: "10.0.0.7", details: {} }));
        const all = await audit.list({ limit: 100 });
        assert.deepEqual(
          all.map((item) => item.id),
          ["aud_7", "aud_6", "aud_5", "aud_4", "aud_3", "aud_2", "aud_1"],
        );
        assert.deepEqual(all[0], entry(7, { ip: "10.0.0.7", details: {} }));
        assert.deepEqual(all[1], entry(6));
        assert.equal("ip" in all[1]!, false);
        assert.deepEqual(
          (await audit.list({ limit: 2 })).map((item) => item.id),
          ["aud_7", "aud_6"],
        );
        assert.deepEqual(
          (await audit.list({ limit: 100, actor: "alice" })).map((item) => item.id),
          ["aud_6", "aud_4", "aud_2"],
        );
        assert.deepEqual(
          (await audit.list({ limit: 100, action: "agent.saved" })).map((item) => item.id),
          ["aud_6", "aud_3"],
        );
        // `since` is inclusive, and any ISO form of the same instant compares alike.
        assert.deepEqual(
          (await audit.list({ limit: 100, since: "2026-11-27T02:00:05+01:00" })).map((item) => item.id),
          ["aud_7", "aud_6", "aud_5"],
        );
        assert.deepEqual(
          (
            await audit.list({
              limit: 100,
              since: "2026-11-27T01:00:02Z",
              actor: "bob",
              action: "run.started",
            })
          ).map((item) => item.id),
          ["aud_7", "aud_5"],
        );
      }),
  },
  {
    name: "audit log: an id is written once; a second entry with it is refused and changes nothing",
    run: (make) =>
      withStore(make, async (store) => {
        await store.audit.append(entry(1));
        await assert.rejects(store.audit.append(entry(1, { actor: "mallory" })));
        assert.deepEqual(await store.audit.list({ limit: 10 }), [entry(1)]);
      }),
  },
];
