import assert from "node:assert/strict";
import { withStore, type StoreConformanceCase } from "../store-claim-cases.js";

const NOW = "2026-12-01T10:00:00.000Z";
const LATER = "2026-12-01T10:05:00.000Z";

/** The inbox's marks and the sessions it lists (part of the store suite). */
export const inboxStoreCases: readonly StoreConformanceCase[] = [
  {
    name: "keeps an item's assignee and snooze for its current pause only",
    run: (make) =>
      withStore(make, async (store) => {
        const key = { itemId: "pause:run_1", token: "tok_1" };
        assert.deepEqual(await store.inbox.get([key]), new Map());
        const assigned = await store.inbox.set({ ...key, assignee: "ops-lead", now: NOW });
        assert.deepEqual(assigned, {
          ...key,
          assignee: "ops-lead",
          snoozedUntil: null,
          createdNoticedAt: null,
          dueSoonNoticedAt: null,
          updatedAt: NOW,
        });
        // Setting the snooze keeps the assignee; null clears it.
        await store.inbox.set({ ...key, snoozedUntil: LATER, now: LATER });
        assert.deepEqual(
          await store.inbox.get([key]),
          new Map([[key.itemId, { ...assigned, snoozedUntil: LATER, updatedAt: LATER }]]),
        );
        const cleared = await store.inbox.set({ ...key, assignee: null, now: LATER });
        assert.equal(cleared.assignee, null);
        assert.equal(cleared.snoozedUntil, LATER);
        // The run paused again: the earlier pause's mark is void, and a write for the new one starts clean.
        const next = { itemId: "pause:run_1", token: "tok_2" };
        assert.deepEqual(await store.inbox.get([next]), new Map());
        assert.equal((await store.inbox.set({ ...next, assignee: "sam", now: LATER })).snoozedUntil, null);
        const both = await store.inbox.get([next, { itemId: "pause:run_9", token: "tok_9" }]);
        assert.deepEqual([...both.keys()], ["pause:run_1"]);
      }),
  },
  {
    name: "gives each notice of an item to exactly one of concurrent claims, again for a new pause",
    run: (make) =>
      withStore(make, async (store) => {
        const key = { itemId: "merge:ses_1:merge_1", token: "merge_1" };
        await store.inbox.set({ ...key, assignee: "sam", now: NOW });
        const claims = await Promise.all(
          Array.from({ length: 6 }, () => store.inbox.claimNotice({ ...key, notice: "created", now: NOW })),
        );
        assert.equal(claims.filter(Boolean).length, 1);
        assert.equal(await store.inbox.claimNotice({ ...key, notice: "created", now: LATER }), false);
        assert.equal(await store.inbox.claimNotice({ ...key, notice: "due_soon", now: LATER }), true);
        const mark = (await store.inbox.get([key])).get(key.itemId);
        assert.deepEqual(
          [mark?.assignee, mark?.createdNoticedAt, mark?.dueSoonNoticedAt],
          ["sam", NOW, LATER],
        );
        const next = { itemId: key.itemId, token: "merge_1b" };
        assert.equal(await store.inbox.claimNotice({ ...next, notice: "created", now: LATER }), true);
        assert.equal((await store.inbox.get([next])).get(key.itemId)?.assignee, null);
      }),
  },
  {
    name: "lists the sessions holding merges for a person, newest first, and not once they are decided",
    run: (make) =>
      withStore(make, async (store) => {
        const hold = async (id: string, agentId: string, now: string) => {
          await store.sessions.create({ id, agentId, agentVersion: 1, now });
          await store.sessions.update(id, () => ({
            events: [
              {
                type: "merge_pending",
                ts: Date.parse(now),
                data: { mergeId: "merge_1", name: "Research", strategy: "HUMAN_GATED", tasks: [] },
              },
            ],
            result: undefined,
          }));
        };
        await store.sessions.create({ id: "ses_idle", agentId: "a", agentVersion: 1 });
        await hold("ses_a", "a", NOW);
        await hold("ses_b", "b", LATER);
        const ids = async (options?: { agentId?: string }) =>
          (await store.sessions.listWithPendingMerges(options)).map((record) => record.id);
        assert.deepEqual(await ids(), ["ses_b", "ses_a"]);
        assert.deepEqual(await ids({ agentId: "a" }), ["ses_a"]);
        const [first] = await store.sessions.listWithPendingMerges({ agentId: "b" });
        assert.deepEqual(
          first?.pendingMerges.map((merge) => merge.mergeId),
          ["merge_1"],
        );
        await store.sessions.update("ses_a", () => ({
          events: [{ type: "merge_decided", data: { mergeId: "merge_1", decision: "approve" } }],
          result: undefined,
        }));
        assert.deepEqual(await ids(), ["ses_b"]);
      }),
  },
];
