import { createHmac } from "node:crypto";
import { AgentSpec, NotificationBody, WebhookDelivery, type RunRecord } from "@waddle/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";
import { startTestReceiver, type TestReceiver } from "./test-receiver.js";

const SECRET = "whsec_test_secret_0123456789";
let server: TestServer;
const receivers: TestReceiver[] = [];
const attempts: WebhookDelivery[] = [];
const attemptWaiters = new Set<() => void>();
const noteAttempt = (delivery: WebhookDelivery) => {
  attempts.push(delivery);
  for (const wake of attemptWaiters) wake();
  attemptWaiters.clear();
};

/** Two mock steps in order: the offline model calls both, then answers. */
const spec = (id: string, planner: Record<string, unknown> = {}) =>
  AgentSpec.parse({
    version: 1,
    id,
    name: `Notify ${id}`,
    tools: [
      { name: "lookup", desc: "Looks a record up.", impl: { kind: "mock", output: { found: true } } },
      { name: "summarize", desc: "Sums it up.", impl: { kind: "mock", output: { summary: "ok" } } },
    ],
    hints: { ordering_hints: ["lookup", "summarize"] },
    planner,
  });

beforeAll(async () => {
  server = await startTestServer({
    // Every port of 127.0.0.1 (the receivers'), listed as an address: loopback is reachable only so.
    httpAllow: ["127.0.0.1"],
    // A short backoff and timeout, so that retries come at once and a hanging target fails fast.
    notifications: {
      retry: { baseMs: 5, maxDelayMs: 20 },
      timeoutMs: 300,
      onAttempt: noteAttempt,
    },
  });
  for (const id of ["notify-a", "notify-b"]) {
    expect((await server.request("/api/agents", { method: "POST", json: spec(id) })).status).toBe(201);
  }
});
afterEach(async () => {
  for (const webhook of (await server.request("/api/webhooks")).body.webhooks as { id: string }[])
    await server.request(`/api/webhooks/${webhook.id}`, { method: "DELETE" });
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});
afterAll(() => server.stop());

async function receiver(answer?: (index: number) => number | "hang"): Promise<TestReceiver> {
  const started = await startTestReceiver({ secret: SECRET, ...(answer ? { answer } : {}) });
  receivers.push(started);
  return started;
}

async function createWebhook(json: Record<string, unknown>): Promise<string> {
  const created = await server.request("/api/webhooks", {
    method: "POST",
    json: { secret: SECRET, ...json },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.webhook.id as string;
}

async function startRun(agentId: string): Promise<RunRecord> {
  const started = await server.request("/api/runs", { method: "POST", json: { agentId, query: "go" } });
  expect(started.status).toBe(202);
  return waitForRun(server, started.body.runId as string);
}

/** Resolves once an attempt that matches was recorded (at once when one already was). */
async function waitForAttempt(match: (delivery: WebhookDelivery) => boolean): Promise<WebhookDelivery> {
  for (;;) {
    const found = attempts.find(match);
    if (found) return found;
    await new Promise<void>((resolve) => attemptWaiters.add(resolve));
  }
}

describe("notifications: delivery", () => {
  it("signs each attempt, retries 500 twice, and delivers the event exactly once on the 200", async () => {
    const target = await receiver((index) => (index <= 2 ? 500 : 200));
    const webhookId = await createWebhook({
      url: target.url,
      events: ["run.finished"],
      agents: ["notify-a"],
    });
    const run = await startRun("notify-a");
    expect(run.status).toBe("finished");
    const received = await target.waitFor(3);
    const delivered = await waitForAttempt(
      (delivery) => delivery.webhookId === webhookId && delivery.status === "delivered",
    );

    // Every attempt is signed: t=<seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>.
    for (const request of received) {
      expect(request.verified).toBe(true);
      const [t, v1] = String(request.headers["waddle-signature"])
        .split(",")
        .map((part) => part.split("=")[1]);
      expect(createHmac("sha256", SECRET).update(`${t}.${request.body}`).digest("hex")).toBe(v1);
    }
    // One notification, sent three times, answered 200 once: the receiver has it exactly once.
    const bodies = received.map((request) => NotificationBody.parse(request.json));
    expect(new Set(bodies.map((body) => body.id)).size).toBe(1);
    expect(received.filter((request) => request.answered === 200)).toHaveLength(1);
    expect(bodies[0]).toMatchObject({
      type: "run.finished",
      data: {
        agentId: "notify-a",
        runId: run.id,
        reason: "answer_complete",
        link: `${server.url}/#/agents/notify-a/runs/${run.id}`,
      },
    });
    expect(received.map((request) => request.headers["waddle-attempt"])).toEqual(["1", "2", "3"]);

    // Every attempt is logged; nothing is left to send.
    const log = await server.request(`/api/webhooks/${webhookId}/deliveries`);
    expect(log.status).toBe(200);
    const deliveries = log.body.deliveries.map((item: unknown) => WebhookDelivery.parse(item));
    expect(deliveries.map((item: WebhookDelivery) => [item.attempt, item.status, item.responseCode])).toEqual(
      [
        [3, "delivered", 200],
        [2, "retrying", 500],
        [1, "retrying", 500],
      ],
    );
    expect(deliveries[0]).toEqual(delivered);
    expect(deliveries[0].nextAttemptAt).toBeNull();
    expect(deliveries[1].nextAttemptAt).not.toBeNull();
    for (const item of deliveries) expect(item.latencyMs).toBeGreaterThanOrEqual(0);
    expect(await server.store.webhooks.getNextDueAt()).toBeUndefined();
  });

  it("stops at a 4xx other than 408 and 429, after one attempt", async () => {
    const target = await receiver(() => 404);
    const webhookId = await createWebhook({
      url: target.url,
      events: ["run.finished"],
      agents: ["notify-b"],
    });
    await startRun("notify-b");
    const failed = await waitForAttempt((delivery) => delivery.webhookId === webhookId);
    expect(failed).toMatchObject({ attempt: 1, status: "failed", responseCode: 404, nextAttemptAt: null });
    expect(target.received).toHaveLength(1);
    expect(await server.store.webhooks.getNextDueAt()).toBeUndefined();
  });

  it("retries 408 and 429 like a 5xx", async () => {
    const target = await receiver((index) => [408, 429, 204][index - 1] ?? 204);
    const webhookId = await createWebhook({
      url: target.url,
      events: ["run.finished"],
      agents: ["notify-a"],
    });
    await startRun("notify-a");
    await waitForAttempt((delivery) => delivery.webhookId === webhookId && delivery.status === "delivered");
    expect(target.received.map((request) => request.answered)).toEqual([408, 429, 204]);
  });

  it("posts {text, blocks} a Slack incoming webhook takes, for format slack", async () => {
    const target = await receiver();
    const webhookId = await createWebhook({ url: target.url, events: ["run.failed"], format: "slack" });
    const tested = await server.request(`/api/webhooks/${webhookId}/test`, { method: "POST" });
    expect(tested.status).toBe(200);
    expect(tested.body.delivery).toMatchObject({
      attempt: 1,
      status: "delivered",
      responseCode: 200,
      type: "run.failed",
    });
    const [request] = await target.waitFor(1);
    expect(request!.verified).toBe(true);
    const message = request!.json as {
      text: string;
      blocks: { type: string; text?: { type: string; text: string } }[];
    };
    expect(Object.keys(message).sort()).toEqual(["blocks", "text"]);
    expect(message.text).toContain("A test notification from Waddle (run.failed)");
    expect(message.blocks.map((block) => block.type)).toEqual(["section", "context"]);
    expect(message.blocks[0]!.text).toMatchObject({ type: "mrkdwn" });
    expect(JSON.stringify(message.blocks[1])).toContain("*run.failed*");
  });

  it("never slows or fails a run: a target that hangs or refuses is retried while the run finishes as usual", async () => {
    const hanging = await receiver(() => "hang");
    const dead = await receiver();
    const deadUrl = dead.url;
    await dead.close();
    receivers.splice(receivers.indexOf(dead), 1);
    const hangingId = await createWebhook({ url: hanging.url, events: ["run.finished", "run.failed"] });
    const deadId = await createWebhook({ url: deadUrl, events: ["run.finished"] });
    const run = await startRun("notify-b");
    expect(run.status).toBe("finished");
    const events = (await server.request(`/api/runs/${run.id}/events`)).body.events as { type: string }[];
    expect(events.at(-1)?.type).toBe("run_finished");
    await hanging.waitFor(1);
    const timedOut = await waitForAttempt((delivery) => delivery.webhookId === hangingId);
    expect(timedOut).toMatchObject({
      status: "retrying",
      responseCode: null,
      error: "no answer within 300 ms",
    });
    const refused = await waitForAttempt((delivery) => delivery.webhookId === deadId);
    expect(refused).toMatchObject({ status: "retrying", responseCode: null });
    expect(refused.error).toMatch(/ECONNREFUSED/);
  });

  it("notifies a release (release.created) and a run stopped at its budget (budget.exceeded)", async () => {
    const target = await receiver();
    await createWebhook({
      url: target.url,
      events: ["release.created", "budget.exceeded"],
      agents: ["notify-a"],
    });
    const released = await server.request("/api/agents/notify-a/releases", {
      method: "POST",
      json: { version: 1, channel: "staging" },
    });
    expect(released.status).toBe(201);
    const [release] = await target.waitFor(1);
    expect(release!.json).toMatchObject({
      type: "release.created",
      data: {
        agentId: "notify-a",
        channel: "staging",
        version: 1,
        kind: "release",
        link: `${server.url}/#/agents/notify-a`,
      },
    });
    const saved = await server.request("/api/agents/notify-a", {
      method: "PUT",
      json: { spec: spec("notify-a", { hopBudget: 1 }), baseVersion: 1 },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const run = await startRun("notify-a");
    expect(run.result).toMatchObject({ reason: "budget_exhausted" });
    const [, budget] = await target.waitFor(2);
    expect(budget!.json).toMatchObject({
      type: "budget.exceeded",
      data: { runId: run.id, reason: "budget_exhausted" },
    });
  });
});

describe("notifications: pauses", () => {
  it("announces a pause once (pause.created, linking to the run), then the run's end once it is approved", async () => {
    const gated = AgentSpec.parse({
      ...spec("notify-gated"),
      tools: spec("notify-gated").tools.map((tool) =>
        tool.name === "summarize" ? { ...tool, requiresApproval: true } : tool,
      ),
    });
    expect((await server.request("/api/agents", { method: "POST", json: gated })).status).toBe(201);
    const target = await receiver();
    await createWebhook({
      url: target.url,
      events: ["pause.created", "run.finished"],
      agents: ["notify-gated"],
    });
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "notify-gated", query: "go" },
    });
    const paused = await waitForRun(server, started.body.runId as string, new Set(["paused"]));
    const [pause] = await target.waitFor(1);
    expect(pause!.verified).toBe(true);
    expect(pause!.json).toMatchObject({
      type: "pause.created",
      data: {
        agentId: "notify-gated",
        runId: paused.id,
        tool: "summarize",
        link: `${server.url}/#/agents/notify-gated/runs/${paused.id}`,
      },
    });
    const resumed = await server.request(`/api/runs/${paused.id}/resume`, {
      method: "POST",
      json: { resumeToken: paused.pause!.resumeToken, decision: "approve" },
    });
    expect(resumed.status, resumed.text).toBe(202);
    expect((await waitForRun(server, paused.id)).status).toBe("finished");
    const received = await target.waitFor(2);
    expect(received.map((request) => request.json["type"])).toEqual(["pause.created", "run.finished"]);
  });
});

describe("notifications: the webhook routes", () => {
  it("refuses a target host off the HTTP allow-list with a 400 naming url, on create and on patch", async () => {
    const refused = await server.request("/api/webhooks", {
      method: "POST",
      json: { url: "https://hooks.example.com/waddle", events: ["run.failed"] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: "validation_failed",
      details: { issues: [{ path: "$.url", code: "host_not_allowed" }] },
    });
    expect(refused.body.message).toContain('"url"');
    expect(refused.body.message).toContain("hooks.example.com");
    const target = await receiver();
    const id = await createWebhook({ url: target.url, events: ["run.failed"] });
    const patched = await server.request(`/api/webhooks/${id}`, {
      method: "PATCH",
      json: { url: "http://10.0.0.8/hook" },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.details.issues[0].path).toBe("$.url");
  });

  it("creates (the secret shown once, sealed at rest), lists, reads, patches and deletes", async () => {
    const target = await receiver();
    const created = await server.request("/api/webhooks", {
      method: "POST",
      json: { url: target.url, events: ["run.failed", "run.failed", "pause.created"], agents: ["notify-a"] },
    });
    expect(created.status).toBe(201);
    const { webhook, secret } = created.body as { webhook: { id: string }; secret: string };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect(webhook).toMatchObject({
      url: target.url,
      events: ["run.failed", "pause.created"],
      agents: ["notify-a"],
      format: "json",
      enabled: true,
      createdBy: "local",
    });
    const stored = await server.store.webhooks.get(webhook.id);
    expect(stored?.sealedSecret).toMatch(/^v1:/);
    expect(stored?.sealedSecret).not.toContain(secret);
    const listed = await server.request("/api/webhooks");
    expect(listed.body.webhooks).toEqual([webhook]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect((await server.request(`/api/webhooks/${webhook.id}`)).body).toEqual(webhook);
    const patched = await server.request(`/api/webhooks/${webhook.id}`, {
      method: "PATCH",
      json: { enabled: false, format: "slack", secret: "a-new-secret-of-20-chars" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      enabled: false,
      format: "slack",
      events: ["run.failed", "pause.created"],
    });
    // The new secret signs from now on (a test send is refused while disabled, and says so).
    const disabled = await server.request(`/api/webhooks/${webhook.id}/test`, { method: "POST" });
    expect(disabled.body.delivery).toMatchObject({ status: "failed", error: "the webhook is disabled" });
    await server.request(`/api/webhooks/${webhook.id}`, { method: "PATCH", json: { enabled: true } });
    await server.request(`/api/webhooks/${webhook.id}/test`, { method: "POST" });
    const [request] = await target.waitFor(1);
    expect(request!.verified).toBe(false);
    const audit = await server.request("/api/audit?action=webhook.updated");
    expect(JSON.stringify(audit.body)).toContain("secretReplaced");
    expect(JSON.stringify(audit.body)).not.toContain("a-new-secret-of-20-chars");
    expect((await server.request(`/api/webhooks/${webhook.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await server.request(`/api/webhooks/${webhook.id}`)).status).toBe(404);
    expect((await server.request(`/api/webhooks/${webhook.id}/deliveries`)).status).toBe(404);
  });

  it("answers bad input with a 400 naming the field", async () => {
    const target = await receiver();
    const cases: [Record<string, unknown>, string][] = [
      [{ url: target.url, events: [] }, "events"],
      [{ url: target.url, events: ["run.exploded"] }, "events[0]"],
      [{ url: "ftp://example.com/x", events: ["run.failed"] }, "url"],
      [{ url: target.url, events: ["run.failed"], format: "xml" }, "format"],
      [{ url: target.url, events: ["run.failed"], secret: "short" }, "secret"],
      [{ url: target.url, events: ["run.failed"], agents: ["no-such-agent"] }, "agents[0]"],
      [{ url: target.url, events: ["run.failed"], agents: [] }, "agents"],
      [{ url: target.url, events: ["run.failed"], extra: 1 }, ""],
    ];
    for (const [json, field] of cases) {
      const answer = await server.request("/api/webhooks", { method: "POST", json });
      expect(answer.status, JSON.stringify(json)).toBe(400);
      expect(answer.body.code).toBe("validation_failed");
      if (field) expect(answer.body.message, JSON.stringify(json)).toContain(`"${field}"`);
    }
    expect((await server.request("/api/webhooks/not-an-id")).status).toBe(400);
    expect((await server.request("/api/webhooks/whk_0123456789abcdef")).status).toBe(404);
    expect((await server.request("/api/webhooks/whk_0123456789abcdef/deliveries?limit=0")).status).toBe(400);
  });
});
