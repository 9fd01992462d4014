import assert from "node:assert/strict";
import { withStore, type StoreConformanceCase } from "../store-claim-cases.js";

const spec = { version: 1, id: "drafted", name: "Drafted", tools: [{ name: "not valid yet" }] };

/** Drafts: one per agent, replaced by the next put, gone once deleted; specs kept as sent, valid or not. */
export const draftStoreCases: readonly StoreConformanceCase[] = [
  {
    name: "drafts: a put replaces the agent's draft, kept as sent; delete says whether there was one",
    run: (make) =>
      withStore(make, async (store) => {
        const drafts = store.drafts;
        assert.equal(await drafts.get("drafted"), undefined);
        await drafts.put({ agentId: "drafted", baseVersion: 1, spec, updatedAt: "2026-01-01T00:00:00.000Z" });
        await drafts.put({
          agentId: "other",
          baseVersion: null,
          spec: {},
          updatedAt: "2026-01-01T00:00:00.000Z",
        });
        const edited = { ...spec, name: "Drafted, edited" };
        await drafts.put({
          agentId: "drafted",
          baseVersion: 2,
          spec: edited,
          updatedAt: "2026-01-02T00:00:00.000Z",
        });
        assert.deepEqual(await drafts.get("drafted"), {
          agentId: "drafted",
          baseVersion: 2,
          spec: edited,
          updatedAt: "2026-01-02T00:00:00.000Z",
        });
        assert.equal(await drafts.delete("drafted"), true);
        assert.equal(await drafts.delete("drafted"), false);
        assert.equal(await drafts.get("drafted"), undefined);
        assert.equal((await drafts.get("other"))?.baseVersion, null);
      }),
  },
];
