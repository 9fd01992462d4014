import { AgentSpec, NotificationBody, WebhookDelivery } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestReceiver, type TestReceiver } from "../notifications/test-receiver.js";
import { getMissingPartsReason } from "../testing/real-parts.js";
import { startTestCluster, type ClusterInstance, type TestCluster } from "../testing/start-test-cluster.js";

const skip = getMissingPartsReason(["postgres", "redis"]);
const SECRET = "whsec_scale_out_secret_0123";

/**
 * Issue 34: in queue mode each notification goes through BullMQ to the workers of every instance, and
 * reaches its webhook once. `WADDLE_TEST_SCALE_OUT=only npx vitest run server/src/scale/scale-out-notifications.test.ts`
 */
describe.skipIf(skip)("notifications in queue mode: two instances, one delivery", () => {
  let cluster: TestCluster;
  let first: ClusterInstance;
  let second: ClusterInstance;
  let target: TestReceiver;
  beforeAll(async () => {
    // The first attempt fails (503): its retry is a delayed job any instance may take.
    target = await startTestReceiver({ secret: SECRET, answer: (index) => (index === 1 ? 503 : 200) });
    cluster = await startTestCluster({
      WADDLE_HTTP_ALLOW: target.hostEntry,
      WADDLE_PUBLIC_URL: "https://waddle.example.com",
    });
    // One after the other: the first applies the migrations.
    first = await cluster.start("all");
    second = await cluster.start("all");
  }, 120_000);
  afterAll(async () => {
    await cluster?.destroy();
    await target?.close();
  });

  it("sends a run's end once, signed, retried through the queue, whichever instance ran the run", async () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "notified-across",
      name: "Notified across",
      tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true } } }],
    });
    expect((await first.request("/api/agents", { json: spec })).status).toBe(201);
    const created = await second.request("/api/webhooks", {
      json: { url: target.url, events: ["run.finished"], secret: SECRET },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const webhookId = created.body.webhook.id as string;
    const runIds: string[] = [];
    for (const instance of [first, second, first]) {
      const started = await instance.request("/api/runs", { json: { agentId: spec.id, query: "go" } });
      expect(started.status).toBe(202);
      runIds.push(started.body.runId as string);
    }
    for (const runId of runIds) expect((await cluster.waitForRun(runId)).status).toBe("finished");
    // Three runs: one 503 and three 200s, each run's end delivered once.
    const received = await target.waitFor(4);
    const deliveries = await waitForDelivered(first, webhookId, 3);
    expect(received.every((request) => request.verified)).toBe(true);
    const bodies = received.map((request) => NotificationBody.parse(request.json));
    const delivered = bodies.filter((_, index) => received[index]!.answered === 200);
    expect(delivered.map((body) => body.data["runId"]).sort()).toEqual([...runIds].sort());
    expect(new Set(delivered.map((body) => body.id)).size).toBe(3);
    expect(delivered[0]!.data["link"]).toMatch(
      /^https:\/\/waddle\.example\.com\/#\/agents\/notified-across\/runs\/run_/,
    );
    // The 503's notification was delivered by its second attempt.
    const retried = bodies.find((_, index) => received[index]!.answered === 503)!;
    expect(
      deliveries
        .filter((item) => item.notificationId === retried.id)
        .map((item) => [item.attempt, item.status]),
    ).toEqual([
      [2, "delivered"],
      [1, "retrying"],
    ]);
    expect(deliveries).toHaveLength(4);
    expect(target.received).toHaveLength(4);
  }, 60_000);
});

/** Polls the deliveries (on one instance) until `count` were delivered; the attempts are in PostgreSQL. */
async function waitForDelivered(instance: ClusterInstance, webhookId: string, count: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { body } = await instance.request(`/api/webhooks/${webhookId}/deliveries`);
    const deliveries = (body.deliveries as unknown[]).map((item) => WebhookDelivery.parse(item));
    if (deliveries.filter((item) => item.status === "delivered").length >= count) return deliveries;
    if (Date.now() > deadline) throw new Error(`not delivered: ${JSON.stringify(deliveries)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
