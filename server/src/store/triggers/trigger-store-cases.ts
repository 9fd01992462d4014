import assert from "node:assert/strict";
import { expectStoreError, withStore, type StoreConformanceCase } from "../store-claim-cases.js";
import type { StoredFire, TriggerRecord } from "./trigger-store.js";

const schedule = (id: string, agentId: string, extra: Partial<TriggerRecord> = {}): TriggerRecord =>
  ({
    kind: "schedule",
    cron: "0 9 * * 1-5",
    timezone: "Europe/Paris",
    query: "Morning report «ünïcode»",
    context: { team: "support", nested: { list: [1, "two", null] } },
    overlap: "skip",
    catchUp: "last",
    id,
    agentId,
    name: null,
    enabled: true,
    createdAt: "2026-01-01T00:00:00.000Z",
    createdBy: "ops",
    updatedAt: "2026-01-01T00:00:00.000Z",
    lastFiredAt: null,
    secret: null,
    ...extra,
  }) as TriggerRecord;

const webhook = (id: string, agentId: string): TriggerRecord => ({
  kind: "webhook",
  query: "Triage {{body.subject}}",
  secretMode: "hmac",
  idempotencyField: "id",
  channel: "staging",
  id,
  agentId,
  name: "Tickets",
  enabled: false,
  createdAt: "2026-01-02T00:00:00.000Z",
  createdBy: "local",
  updatedAt: "2026-01-02T00:00:00.000Z",
  lastFiredAt: null,
  secret: "trs_secret",
});

const fire = (
  id: string,
  firedAt: string,
  status: StoredFire["status"],
  triggerId = "trg_1",
): StoredFire => ({
  id,
  triggerId,
  firedAt,
  status,
  runId: status === "started" ? `run_${id}` : null,
  error: status === "failed" ? { code: "channel_not_found", message: "No channel staging." } : null,
});

const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, "0")}.000Z`;

/** Triggers, fires, tick claims and idempotency keys behave alike in every store. */
export const triggerStoreCases: readonly StoreConformanceCase[] = [
  {
    name: "triggers: created, read back whole, listed oldest first by agent, kind and state, replaced, deleted",
    run: (make) =>
      withStore(make, async ({ triggers }) => {
        assert.deepEqual(await triggers.list(), []);
        const first = schedule("trg_1", "triage");
        assert.deepEqual(await triggers.create(first), first);
        await triggers.create(webhook("trg_2", "triage"));
        await triggers.create(schedule("trg_3", "other", { name: "Nightly", enabled: false }));
        await expectStoreError(triggers.create(schedule("trg_1", "triage")), "conflict");
        assert.deepEqual(await triggers.get("trg_1"), first);
        assert.deepEqual(await triggers.get("trg_2"), webhook("trg_2", "triage"));
        assert.equal(await triggers.get("trg_none"), undefined);
        const ids = async (options?: Parameters<typeof triggers.list>[0]) =>
          (await triggers.list(options)).map((trigger) => trigger.id);
        assert.deepEqual(await ids(), ["trg_1", "trg_2", "trg_3"]);
        assert.deepEqual(await ids({ agentId: "triage" }), ["trg_1", "trg_2"]);
        assert.deepEqual(await ids({ kind: "schedule", enabled: true }), ["trg_1"]);
        assert.deepEqual(await ids({ enabled: false }), ["trg_2", "trg_3"]);

        const changed = schedule("trg_1", "someone-else", {
          cron: "*/10 * * * * *",
          channel: "production",
          name: "Every ten seconds",
          updatedAt: at(5),
        });
        const replaced = await triggers.replace(changed);
        assert.equal(replaced.agentId, "triage");
        assert.deepEqual(await triggers.get("trg_1"), { ...changed, agentId: "triage" });
        await expectStoreError(triggers.replace(schedule("trg_none", "triage")), "not_found");

        await triggers.markFired("trg_1", at(20));
        await triggers.markFired("trg_1", at(10));
        assert.equal((await triggers.get("trg_1"))?.lastFiredAt, at(20));

        assert.equal(await triggers.delete("trg_3"), true);
        assert.equal(await triggers.delete("trg_3"), false);
        assert.equal(await triggers.deleteAgent("triage"), 2);
        assert.deepEqual(await triggers.list(), []);
      }),
  },
  {
    name: "trigger fires: newest first, before a time, by status; waiting ones oldest first; gone with the trigger",
    run: (make) =>
      withStore(make, async ({ triggers }) => {
        await triggers.create(schedule("trg_1", "triage"));
        await triggers.create(schedule("trg_2", "triage"));
        await triggers.saveFire(fire("f1", at(10), "started"));
        await triggers.saveFire(fire("f3", at(30), "queued"));
        await triggers.saveFire(fire("f2", at(20), "skipped"));
        await triggers.saveFire(fire("f4", at(40), "failed"));
        await triggers.saveFire(fire("g1", at(5), "queued", "trg_2"));
        const ids = (fires: StoredFire[]) => fires.map((entry) => entry.id);
        assert.deepEqual(ids(await triggers.listFires("trg_1")), ["f4", "f3", "f2", "f1"]);
        assert.deepEqual(ids(await triggers.listFires("trg_1", { limit: 2 })), ["f4", "f3"]);
        assert.deepEqual(ids(await triggers.listFires("trg_1", { before: at(30) })), ["f2", "f1"]);
        assert.deepEqual(
          ids(
            await triggers.listFires("trg_1", { before: at(40), statuses: ["started", "queued"], limit: 1 }),
          ),
          ["f3"],
        );
        assert.deepEqual(await triggers.getFire("f4"), fire("f4", at(40), "failed"));
        assert.deepEqual(ids(await triggers.listQueuedFires()), ["g1", "f3"]);
        // A waiting fire that starts is written again under its id.
        const started = { ...fire("f3", at(30), "started") };
        await triggers.saveFire(started);
        assert.deepEqual(await triggers.getFire("f3"), started);
        assert.deepEqual(ids(await triggers.listQueuedFires()), ["g1"]);
        await triggers.delete("trg_2");
        assert.deepEqual(await triggers.listQueuedFires(), []);
        assert.equal(await triggers.getFire("g1"), undefined);
      }),
  },
  {
    name: "trigger ticks: one claim wins, a done tick never fires again, a lapsed claim is taken by another",
    run: (make) =>
      withStore(make, async ({ triggers }) => {
        const tick = { triggerId: "trg_1", tick: at(10) };
        const claims = await Promise.all(
          ["a", "b", "c"].map((owner) => triggers.claimTick({ ...tick, owner, leaseMs: 60_000 })),
        );
        assert.deepEqual(
          claims.filter((won) => won),
          [true],
        );
        const winner = ["a", "b", "c"][claims.indexOf(true)]!;
        assert.deepEqual(await triggers.listLapsedTicks(), []);
        await triggers.finishTick({ ...tick, owner: winner });
        assert.equal(await triggers.claimTick({ ...tick, owner: "d", leaseMs: 60_000 }), false);

        // A claimer that died: its lease (here none) runs out, and another takes the tick.
        const lapsed = { triggerId: "trg_1", tick: at(20) };
        assert.equal(await triggers.claimTick({ ...lapsed, owner: "dead", leaseMs: 0 }), true);
        assert.deepEqual(await triggers.listLapsedTicks(), [lapsed]);
        assert.equal(await triggers.claimTick({ ...lapsed, owner: "alive", leaseMs: 60_000 }), true);
        assert.deepEqual(await triggers.listLapsedTicks(), []);
        await triggers.finishTick({ ...lapsed, owner: "dead" });
        assert.equal(await triggers.claimTick({ ...lapsed, owner: "third", leaseMs: 0 }), false);
        await triggers.finishTick({ ...lapsed, owner: "alive" });
        assert.equal(await triggers.claimTick({ ...lapsed, owner: "third", leaseMs: 0 }), false);
      }),
  },
  {
    name: "trigger keys: a redelivery gets the run of the first; a released key is free again",
    run: (make) =>
      withStore(make, async ({ triggers }) => {
        const key = { triggerId: "trg_1", key: "evt_1", at: at(1) };
        assert.deepEqual(await triggers.reserveKey({ ...key, runId: "run_a" }), { reserved: true });
        assert.deepEqual(await triggers.reserveKey({ ...key, runId: "run_b" }), {
          reserved: false,
          runId: "run_a",
        });
        assert.deepEqual(await triggers.reserveKey({ ...key, triggerId: "trg_2", runId: "run_c" }), {
          reserved: true,
        });
        await triggers.releaseKey({ ...key, runId: "run_b" });
        assert.deepEqual(await triggers.reserveKey({ ...key, runId: "run_d" }), {
          reserved: false,
          runId: "run_a",
        });
        await triggers.releaseKey({ ...key, runId: "run_a" });
        assert.deepEqual(await triggers.reserveKey({ ...key, runId: "run_e" }), { reserved: true });
      }),
  },
  {
    name: "trigger prune: old done ticks but each trigger's latest, old keys, fires past the newest kept",
    run: (make) =>
      withStore(make, async ({ triggers }) => {
        await triggers.create(schedule("trg_1", "triage"));
        for (const second of [10, 20, 30]) {
          const tick = { triggerId: "trg_1", tick: at(second), owner: "a" };
          await triggers.claimTick({ ...tick, leaseMs: 60_000 });
          if (second !== 20) await triggers.finishTick(tick);
        }
        await triggers.claimTick({ triggerId: "trg_2", tick: at(15), owner: "a", leaseMs: 60_000 });
        await triggers.finishTick({ triggerId: "trg_2", tick: at(15), owner: "a" });
        await triggers.reserveKey({ triggerId: "trg_1", key: "old", runId: "run_o", at: at(1) });
        await triggers.reserveKey({ triggerId: "trg_1", key: "new", runId: "run_n", at: at(50) });
        for (const second of [1, 2, 3, 4]) await triggers.saveFire(fire(`f${second}`, at(second), "skipped"));
        await triggers.prune({ before: at(40), keepFires: 2 });
        // 10 went (done, old), 20 stays (never done), 30 stays (the latest), trg_2's only tick stays.
        assert.equal(
          await triggers.claimTick({ triggerId: "trg_1", tick: at(10), owner: "b", leaseMs: 0 }),
          true,
        );
        assert.equal(
          await triggers.claimTick({ triggerId: "trg_1", tick: at(30), owner: "b", leaseMs: 0 }),
          false,
        );
        assert.equal(
          await triggers.claimTick({ triggerId: "trg_2", tick: at(15), owner: "b", leaseMs: 0 }),
          false,
        );
        assert.equal(
          await triggers.claimTick({ triggerId: "trg_1", tick: at(20), owner: "b", leaseMs: 0 }),
          false,
        );
        assert.deepEqual(
          await triggers.reserveKey({ triggerId: "trg_1", key: "old", runId: "run_x", at: at(60) }),
          { reserved: true },
        );
        assert.deepEqual(
          await triggers.reserveKey({ triggerId: "trg_1", key: "new", runId: "run_x", at: at(60) }),
          { reserved: false, runId: "run_n" },
        );
        assert.deepEqual(
          (await triggers.listFires("trg_1")).map((entry) => entry.id),
          ["f4", "f3"],
        );
      }),
  },
  {
    name: "runs fired by a trigger keep it in their summary and are listed by trigger and by kind",
    run: (make) =>
      withStore(make, async (store) => {
        const base = { agentId: "triage", agentVersion: 1, query: "q", status: "queued" as const };
        await store.createRun({
          ...base,
          id: "run_s",
          origin: { trigger: { id: "trg_1", kind: "schedule" } },
        });
        await store.createRun({
          ...base,
          id: "run_w",
          origin: { trigger: { id: "trg_2", kind: "webhook" }, channel: "production" },
        });
        await store.createRun({ ...base, id: "run_plain" });
        assert.deepEqual((await store.getRun("run_s"))?.trigger, { id: "trg_1", kind: "schedule" });
        assert.equal("trigger" in (await store.getRun("run_plain"))!, false);
        const ids = async (options: Parameters<typeof store.listRuns>[0]) =>
          (await store.listRuns(options)).map((run) => run.id);
        assert.deepEqual(await ids({ trigger: "trg_1" }), ["run_s"]);
        assert.deepEqual(await ids({ triggerKind: "webhook" }), ["run_w"]);
        assert.deepEqual(await ids({ trigger: "trg_2", channel: "production" }), ["run_w"]);
        assert.deepEqual(await ids({ trigger: "trg_none" }), []);
      }),
  },
];
