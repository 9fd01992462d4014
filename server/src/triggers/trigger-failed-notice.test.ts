import { createHmac } from "node:crypto";
import { AgentSpec, NotificationBody } from "@waddle/protocol";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestReceiver, type TestReceiver } from "../notifications/test-receiver.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

const SECRET = "whsec_trigger_failed_0123456789";
let server: TestServer;
let receiver: TestReceiver;

beforeAll(async () => {
  // The receivers listen on 127.0.0.1, which the HTTP allow-list must name for notifications to reach it.
  server = await startTestServer({ exampleAgentsDir: null, httpAllow: ["127.0.0.1"] });
  receiver = await startTestReceiver({ secret: SECRET });
  await server.store.createAgent({
    spec: AgentSpec.parse({
      version: 1,
      id: "nightly",
      name: "Nightly",
      tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: {} } }],
    }),
  });
});
afterAll(async () => {
  await receiver.close();
  await server.stop();
});

it("sends trigger.failed, signed, when a fire cannot start its run", async () => {
  const webhook = await server.request("/api/webhooks", {
    method: "POST",
    json: { url: receiver.url, events: ["trigger.failed"], secret: SECRET },
  });
  expect(webhook.status, webhook.text).toBe(201);
  const created = await server.request("/api/agents/nightly/triggers", {
    method: "POST",
    json: { kind: "webhook", query: "Go", secretMode: "hmac", channel: "staging" },
  });
  const { trigger, secret } = created.body as { trigger: { id: string }; secret: string };
  const body = "{}";
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
  const refused = await server.request(`/hooks/${trigger.id}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "waddle-signature": `t=${t},v1=${v1}` },
  });
  expect(refused.status).toBe(409);
  const [notice] = await receiver.waitFor(1);
  expect(notice!.verified).toBe(true);
  expect(NotificationBody.parse(notice!.json)).toMatchObject({
    type: "trigger.failed",
    data: {
      agentId: "nightly",
      triggerId: trigger.id,
      kind: "webhook",
      error: { code: "channel_not_found" },
    },
  });
});
