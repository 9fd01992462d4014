import { AgentSpec } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";

const TOKEN = "bootstrap-token-for-the-webhook-routes";
let server: TestServer;
const as = (key: string) => ({ authorization: `Bearer ${key}` });

async function createKey(json: Record<string, unknown>): Promise<string> {
  const created = await server.request("/api/keys", { method: "POST", json, headers: as(TOKEN) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.key as string;
}

beforeAll(async () => {
  server = await startTestServer({ token: TOKEN, exampleAgentsDir: null, httpAllow: ["hooks.example.com"] });
  for (const id of ["alpha", "beta"]) {
    const spec = AgentSpec.parse({
      version: 1,
      id,
      name: id,
      tools: [{ name: "lookup", desc: "Looks it up.", impl: { kind: "mock", output: {} } }],
    });
    await server.store.createAgent({ spec });
  }
});
afterAll(() => server.stop());

const webhook = { url: "https://hooks.example.com/waddle", events: ["run.failed"] };

describe("who may manage webhooks", () => {
  it("an admin only: editors, runners and viewers get 403 on every webhook route", async () => {
    const admin = await createKey({ name: "ops", role: "admin" });
    const created = await server.request("/api/webhooks", {
      method: "POST",
      json: webhook,
      headers: as(admin),
    });
    expect(created.status).toBe(201);
    expect(created.body.webhook.createdBy).toBe("ops");
    const id = created.body.webhook.id as string;
    for (const role of ["viewer", "runner", "editor"]) {
      const key = await createKey({ name: `a-${role}`, role });
      for (const [method, path] of [
        ["GET", "/api/webhooks"],
        ["POST", "/api/webhooks"],
        ["GET", `/api/webhooks/${id}`],
        ["PATCH", `/api/webhooks/${id}`],
        ["DELETE", `/api/webhooks/${id}`],
        ["POST", `/api/webhooks/${id}/test`],
        ["GET", `/api/webhooks/${id}/deliveries`],
      ] as const) {
        const answer = await server.request(path, {
          method,
          headers: as(key),
          ...(method === "POST" || method === "PATCH" ? { json: webhook } : {}),
        });
        expect(answer.status, `${method} ${path} as ${role}`).toBe(403);
        expect(answer.body.details.permission).toBe("credentials:manage");
      }
    }
    expect((await server.request("/api/webhooks", { headers: {} })).status).toBe(401);
    const audit = await server.request("/api/audit?action=webhook.created", { headers: as(TOKEN) });
    expect(audit.body.entries).toEqual([
      expect.objectContaining({ actor: "ops", target: { type: "webhook", id } }),
    ]);
  });

  it("a key limited to some agents names them, and sees only the webhooks limited to them", async () => {
    const scoped = await createKey({ name: "alpha-ops", role: "admin", agents: ["alpha"] });
    const everyAgent = await server.request("/api/webhooks", {
      method: "POST",
      json: webhook,
      headers: as(scoped),
    });
    expect(everyAgent.status).toBe(403);
    expect(everyAgent.body.message).toContain('"agents"');
    const other = await server.request("/api/webhooks", {
      method: "POST",
      json: { ...webhook, agents: ["beta"] },
      headers: as(scoped),
    });
    expect(other.status).toBe(400);
    expect(other.body.message).toContain('"agents[0]"');
    const own = await server.request("/api/webhooks", {
      method: "POST",
      json: { ...webhook, agents: ["alpha"] },
      headers: as(scoped),
    });
    expect(own.status).toBe(201);
    const listed = await server.request("/api/webhooks", { headers: as(scoped) });
    expect(listed.body.webhooks.map((item: { id: string }) => item.id)).toEqual([own.body.webhook.id]);
    const all = await server.request("/api/webhooks", { headers: as(TOKEN) });
    const hidden = all.body.webhooks.find((item: { agents: unknown }) => item.agents === null).id as string;
    expect((await server.request(`/api/webhooks/${hidden}`, { headers: as(scoped) })).status).toBe(404);
    const widen = await server.request(`/api/webhooks/${own.body.webhook.id}`, {
      method: "PATCH",
      json: { agents: ["alpha", "beta"] },
      headers: as(scoped),
    });
    expect(widen.status).toBe(400);
  });
});
