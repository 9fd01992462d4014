import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { createLookupTool, createTestAgent, TestVisitor } from "../testing/public-chat-test-kit.js";

const TOKEN = "token-for-the-public-chat-settings";
const admin = { authorization: `Bearer ${TOKEN}` };
let server: TestServer;
let viewer: Record<string, string>;

const settings = (extra: Record<string, unknown> = {}) => ({
  enabled: true,
  title: "Orders",
  allowedOrigins: ["https://shop.example.com", "http://localhost:5173"],
  showSteps: "names",
  ...extra,
});
const put = (json: unknown, headers: Record<string, string> = admin, id = "orders") =>
  server.request(`/api/agents/${id}/public`, { method: "PUT", headers, json });

beforeAll(async () => {
  server = await startTestServer({ token: TOKEN, exampleAgentsDir: null });
  const spec = createTestAgent("orders", [createLookupTool("lookup_order")]);
  expect((await server.request("/api/agents", { method: "POST", headers: admin, json: spec })).status).toBe(
    201,
  );
  const key = await server.request("/api/keys", {
    method: "POST",
    headers: admin,
    json: { name: "watcher", role: "viewer" },
  });
  viewer = { authorization: `Bearer ${key.body.key}` };
});
afterAll(() => server.stop());

describe("GET/PUT /api/agents/:id/public", () => {
  it("is 404 public_chat_not_configured before the first PUT, and 404 not_found for an unknown agent", async () => {
    const before = await server.request("/api/agents/orders/public", { headers: admin });
    expect(before.status).toBe(404);
    expect(before.body).toMatchObject({ code: "public_chat_not_configured", details: { agentId: "orders" } });
    const unknown = await server.request("/api/agents/nobody/public", { headers: admin });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
    expect((await put(settings(), admin, "nobody")).status).toBe(404);
  });

  it("refuses entries of allowedOrigins that are not origins, naming each, and * unless confirmed", async () => {
    const refused = await put(
      settings({
        allowedOrigins: [
          "https://ok.example.com",
          "https://shop.example.com/",
          "https://shop.example.com/path?x=1",
          "ftp://files.example.com",
          "shop.example.com",
          "*",
        ],
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("validation_failed");
    expect(refused.body.message).toMatch(/allowedOrigins\[1\].*write https:\/\/shop\.example\.com/);
    expect(refused.body.details.issues.map((issue: { path: string }) => issue.path)).toEqual([
      "$.allowedOrigins[1]",
      "$.allowedOrigins[2]",
      "$.allowedOrigins[3]",
      "$.allowedOrigins[4]",
      "$.allowedOrigins[5]",
    ]);
    expect(refused.body.details.issues[4].message).toMatch(/allowAnyOrigin/);
    // Nothing was saved.
    expect((await server.request("/api/agents/orders/public", { headers: admin })).status).toBe(404);
  });

  it("answers other bad bodies with 400: unknown fields, a bad rate limit, a channel the agent lacks", async () => {
    expect((await put(settings({ extra: true }))).status).toBe(400);
    expect((await put(settings({ rateLimit: "lots" }))).body.code).toBe("validation_failed");
    expect((await put(settings({ showSteps: "some" }))).status).toBe(400);
    expect((await put({ enabled: true })).status).toBe(400);
    const channel = await put(settings({ channel: "staging" }));
    expect(channel.status).toBe(400);
    expect(channel.body.message).toMatch(/no channel "staging"/);
  });

  it("makes the chat on the first PUT (random public id, wpk_ key), keeps both on later PUTs, and audits each", async () => {
    const first = await put(settings({ allowedOrigins: ["HTTPS://Shop.Example.com"], maxTurns: 5 }));
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      agentId: "orders",
      enabled: true,
      title: "Orders",
      allowedOrigins: ["https://shop.example.com"],
      showSteps: "names",
      maxTurns: 5,
      updatedBy: "WADDLE_TOKEN",
    });
    expect(first.body.publicId).toMatch(/^pub_[0-9a-f]{20}$/);
    expect(first.body.publicId).not.toContain("orders");
    expect(first.body.publishableKey).toMatch(/^wpk_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    const second = await put(settings({ allowedOrigins: ["*"], allowAnyOrigin: true, title: "Orders help" }));
    expect(second.body).toMatchObject({
      publicId: first.body.publicId,
      publishableKey: first.body.publishableKey,
      allowedOrigins: ["*"],
      title: "Orders help",
    });
    const audit = await server.request("/api/audit?action=public_chat.updated", { headers: admin });
    expect(audit.body.entries).toHaveLength(2);
    expect(audit.body.entries[1]).toMatchObject({
      actor: "WADDLE_TOKEN",
      target: { type: "agent", id: "orders" },
      details: { publicId: first.body.publicId, created: true, enabled: true },
    });
    expect(JSON.stringify(audit.body.entries)).not.toContain(first.body.publishableKey);
  });

  it("lets a viewer read it, key included (it is meant for web pages), and only an editor change it", async () => {
    const read = await server.request("/api/agents/orders/public", { headers: viewer });
    expect(read.status).toBe(200);
    expect(read.body.publishableKey).toMatch(/^wpk_/);
    const refused = await put(settings(), viewer);
    expect(refused.status).toBe(403);
    expect(refused.body.details.permission).toBe("agents:write");
    const rotate = await server.request("/api/agents/orders/public/rotate-key", {
      method: "POST",
      headers: viewer,
    });
    expect(rotate.status).toBe(403);
  });
});

describe("POST /api/agents/:id/public/rotate-key", () => {
  it("issues a new key and refuses the old one at once on every public route, keeping visitors' tokens", async () => {
    const chat = (await server.request("/api/agents/orders/public", { headers: admin })).body;
    const visitor = new TestVisitor(server, chat);
    const sessionId = await visitor.startSession();
    const rotated = await server.request("/api/agents/orders/public/rotate-key", {
      method: "POST",
      headers: admin,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.publicId).toBe(chat.publicId);
    expect(rotated.body.publishableKey).not.toBe(chat.publishableKey);
    expect((await visitor.request("/config")).status).toBe(404);
    expect((await visitor.request(`/sessions/${sessionId}`)).status).toBe(404);
    expect((await visitor.request("/sessions", { method: "POST" })).status).toBe(404);
    const renewed = new TestVisitor(server, rotated.body, visitor.token);
    expect((await renewed.request("/config")).status).toBe(200);
    expect((await renewed.request(`/sessions/${sessionId}`)).status).toBe(200);
    const audit = await server.request("/api/audit?action=public_chat.key_rotated", { headers: admin });
    expect(audit.body.entries[0]).toMatchObject({ details: { publicId: chat.publicId } });
    const none = await server.request("/api/agents/nobody/public/rotate-key", {
      method: "POST",
      headers: admin,
    });
    expect(none.status).toBe(404);
  });
});
