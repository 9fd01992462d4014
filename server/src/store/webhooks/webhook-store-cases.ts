import assert from "node:assert/strict";
import type { NotificationBody, WebhookDelivery } from "@waddle/protocol";
import { expectStoreError, withStore, type StoreConformanceCase } from "../store-claim-cases.js";
import type { NewOutboxEntry, StoredWebhook } from "./webhook-store.js";

const webhook = (id: string, extra: Partial<StoredWebhook> = {}): StoredWebhook => ({
  id,
  url: "https://hooks.example.com/waddle?x=«ü»",
  events: ["run.failed", "pause.created"],
  agents: null,
  format: "json",
  enabled: true,
  createdAt: "2026-03-01T00:00:00.000Z",
  createdBy: "ops",
  sealedSecret: "v1:sealed",
  updatedAt: "2026-03-01T00:00:00.000Z",
  ...extra,
});

const body = (id: string): NotificationBody => ({
  id,
  type: "run.failed",
  createdAt: "2026-03-01T00:00:01.000Z",
  data: { agentId: "triage", runId: "run_1", link: "http://127.0.0.1:8787/#/agents/triage/runs/run_1" },
});

const entry = (
  id: string,
  webhookId: string,
  nextAttemptAtMs: number,
  extra: Partial<NewOutboxEntry> = {},
) => ({
  id,
  webhookId,
  body: body(`ntf_${id}`),
  createdAtMs: 1_000,
  nextAttemptAtMs,
  ...extra,
});

const delivery = (id: string, webhookId: string, attempt: number): WebhookDelivery => ({
  id,
  webhookId,
  notificationId: "ntf_a",
  type: "run.failed",
  attempt,
  attemptedAt: "2026-03-01T00:00:02.000Z",
  status: attempt < 2 ? "retrying" : "delivered",
  responseCode: attempt < 2 ? 500 : 200,
  latencyMs: 12.5,
  error: attempt < 2 ? "HTTP 500" : null,
  nextAttemptAt: attempt < 2 ? "2026-03-01T00:00:07.000Z" : null,
});

/** Webhooks come back as written; the outbox is claimed once per attempt, and attempts are logged in order. */
export const webhookStoreCases: readonly StoreConformanceCase[] = [
  {
    name: "webhooks: created, read, listed oldest first, patched field by field, deleted",
    run: (make) =>
      withStore(make, async (store) => {
        const { webhooks } = store;
        assert.deepEqual(await webhooks.list(), []);
        await webhooks.create(webhook("whk_1"));
        await webhooks.create(webhook("whk_2", { agents: ["triage"], format: "slack", enabled: false }));
        await expectStoreError(webhooks.create(webhook("whk_1")), "conflict");
        assert.deepEqual(await webhooks.get("whk_1"), webhook("whk_1"));
        assert.deepEqual(
          (await webhooks.list()).map((item) => [item.id, item.agents, item.format, item.enabled]),
          [
            ["whk_1", null, "json", true],
            ["whk_2", ["triage"], "slack", false],
          ],
        );
        const patched = await webhooks.update("whk_2", {
          enabled: true,
          agents: null,
          events: ["run.finished"],
        });
        assert.deepEqual(patched, webhook("whk_2", { format: "slack", events: ["run.finished"] }));
        assert.deepEqual(await webhooks.update("whk_2", {}), patched);
        assert.equal(await webhooks.update("whk_9", { enabled: false }), undefined);
        assert.equal(await webhooks.delete("whk_2"), true);
        assert.equal(await webhooks.delete("whk_2"), false);
        assert.equal(await webhooks.get("whk_2"), undefined);
      }),
  },
  {
    name: "webhook outbox: due entries are claimed once, soonest first, until their lease ends",
    run: (make) =>
      withStore(make, async (store) => {
        const { webhooks } = store;
        await webhooks.create(webhook("whk_1"));
        assert.equal(await webhooks.getNextDueAt(), undefined);
        await webhooks.enqueue([
          entry("e2", "whk_1", 2_000),
          entry("e1", "whk_1", 1_500),
          entry("e3", "whk_1", 9_000),
        ]);
        await expectStoreError(webhooks.enqueue([entry("e1", "whk_1", 1_000)]), "conflict");
        await expectStoreError(webhooks.enqueue([entry("e9", "whk_9", 1_000)]), "not_found");
        assert.equal(await webhooks.getNextDueAt(), 1_500);
        const first = await webhooks.claimDue({ nowMs: 2_000, leaseMs: 10_000, limit: 10 });
        assert.deepEqual(
          first.map((item) => [item.id, item.attempts, item.state]),
          [
            ["e1", 0, "pending"],
            ["e2", 0, "pending"],
          ],
        );
        assert.deepEqual(first[0]!.body, body("ntf_e1"));
        // Leased: nobody else takes them, by batch or by id, until the lease ends.
        assert.deepEqual(await webhooks.claimDue({ nowMs: 2_001, leaseMs: 10_000, limit: 10 }), []);
        assert.equal(
          await webhooks.claim({ id: "e1", attempts: 0, nowMs: 2_001, leaseMs: 10_000 }),
          undefined,
        );
        assert.equal(await webhooks.getNextDueAt(), 9_000);
        const again = await webhooks.claimDue({ nowMs: 12_000, leaseMs: 10_000, limit: 1 });
        assert.deepEqual(
          again.map((item) => item.id),
          ["e1"],
        );
      }),
  },
  {
    name: "webhook outbox: an attempt is recorded once and moves its entry on; attempts listed newest first",
    run: (make) =>
      withStore(make, async (store) => {
        const { webhooks } = store;
        await webhooks.create(webhook("whk_1"));
        await webhooks.create(webhook("whk_2"));
        await webhooks.enqueue([
          entry("e1", "whk_1", 1_000, { leaseUntilMs: 5_000 }),
          entry("f1", "whk_2", 1_000),
        ]);
        // Written already claimed (a test send): due, but not free.
        assert.deepEqual(
          (await webhooks.claimDue({ nowMs: 2_000, leaseMs: 100, limit: 10 })).map((item) => item.id),
          ["f1"],
        );
        const retry = {
          entryId: "e1",
          attempts: 0,
          delivery: delivery("dlv_1", "whk_1", 1),
          state: "pending" as const,
          nextAttemptAtMs: 7_000,
        };
        assert.equal(await webhooks.recordAttempt(retry), true);
        assert.equal(await webhooks.recordAttempt(retry), false, "the same attempt is recorded once");
        assert.equal(await webhooks.claim({ id: "e1", attempts: 0, nowMs: 8_000, leaseMs: 100 }), undefined);
        const claimed = await webhooks.claim({ id: "e1", attempts: 1, nowMs: 3_000, leaseMs: 100 });
        assert.deepEqual([claimed?.attempts, claimed?.nextAttemptAtMs], [1, 7_000], "by id, due or not");
        assert.equal(
          await webhooks.recordAttempt({
            entryId: "e1",
            attempts: 1,
            delivery: delivery("dlv_2", "whk_1", 2),
            state: "delivered",
            nextAttemptAtMs: null,
          }),
          true,
        );
        assert.equal(await webhooks.claim({ id: "e1", attempts: 2, nowMs: 9_000, leaseMs: 100 }), undefined);
        assert.deepEqual(await webhooks.listDeliveries("whk_1"), [
          delivery("dlv_2", "whk_1", 2),
          delivery("dlv_1", "whk_1", 1),
        ]);
        assert.deepEqual(await webhooks.listDeliveries("whk_1", { limit: 1 }), [
          delivery("dlv_2", "whk_1", 2),
        ]);
        assert.deepEqual(await webhooks.listDeliveries("whk_2"), []);
        assert.equal(await webhooks.delete("whk_1"), true);
        assert.deepEqual(await webhooks.listDeliveries("whk_1"), []);
        assert.equal(await webhooks.recordAttempt({ ...retry, attempts: 2 }), false);
      }),
  },
  {
    name: "webhook outbox: overdue entries that no lease holds are listed for a sweeper",
    run: (make) =>
      withStore(make, async (store) => {
        const { webhooks } = store;
        await webhooks.create(webhook("whk_1"));
        await webhooks.enqueue([
          entry("e1", "whk_1", 1_000),
          entry("e2", "whk_1", 2_000, { leaseUntilMs: 50_000 }),
          entry("e3", "whk_1", 30_000),
        ]);
        const overdue = await webhooks.listOverdue({ beforeMs: 20_000, nowMs: 25_000, limit: 10 });
        assert.deepEqual(
          overdue.map((item) => item.id),
          ["e1"],
        );
        assert.deepEqual(
          (await webhooks.listOverdue({ beforeMs: 40_000, nowMs: 60_000, limit: 2 })).map((item) => item.id),
          ["e1", "e2"],
        );
      }),
  },
];
