import type { PublicChat } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import {
  createLookupTool,
  createTestAgent,
  publishAgent,
  TestVisitor,
} from "../testing/public-chat-test-kit.js";

const TOKEN = "token-for-the-public-chat-guards";
const admin = { authorization: `Bearer ${TOKEN}` };
const SHOP = "https://shop.example.com";
/** The designer's own cross-origin client (`WADDLE_CORS_ORIGIN`): no public chat lists it. */
const DESIGNER = "https://designer.example.com";
let server: TestServer;
let shop: PublicChat;

const settings = { allowedOrigins: [SHOP, "http://localhost:5173"] };

beforeAll(async () => {
  server = await startTestServer({ token: TOKEN, exampleAgentsDir: null, corsOrigin: DESIGNER });
  shop = await publishAgent({
    server,
    headers: admin,
    spec: createTestAgent("shop", [createLookupTool("lookup_order")]),
    settings,
  });
});
afterAll(() => server.stop());

describe("CORS of the public routes", () => {
  it("answers a preflight and requests from an allowed origin, with the headers a page needs", async () => {
    const preflight = await server.request(`/public/${shop.publicId}/sessions`, {
      method: "OPTIONS",
      headers: {
        origin: SHOP,
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-waddle-public-key, content-type, authorization",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(preflight.headers.get("access-control-allow-methods")).toMatch(/POST/);
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/x-waddle-public-key/);
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/authorization/);
    const visitor = new TestVisitor(server, shop);
    const created = await visitor.request("/sessions", { method: "POST", headers: { origin: SHOP } });
    expect(created.status).toBe(201);
    expect(created.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(created.headers.get("vary")).toMatch(/Origin/);
    expect(created.headers.get("access-control-expose-headers")).toMatch(/retry-after/);
    const local = await visitor.request("/config", { headers: { origin: "http://localhost:5173" } });
    expect(local.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
  });

  it("refuses any other origin with 403 and no CORS header, the designer's own included", async () => {
    const visitor = new TestVisitor(server, shop);
    for (const origin of [
      "https://evil.example.com",
      "https://shop.example.com.evil.net",
      DESIGNER,
      "null",
    ]) {
      const preflight = await server.request(`/public/${shop.publicId}/sessions`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST" },
      });
      expect(preflight.status, origin).toBe(403);
      expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
      const request = await visitor.request("/sessions", { method: "POST", headers: { origin } });
      expect(request.status, origin).toBe(403);
      expect(request.body.code).toBe("forbidden");
      expect(request.headers.get("access-control-allow-origin")).toBeNull();
    }
    // The designer's origin still gets its CORS on the API.
    const api = await server.request("/api/health", { headers: { origin: DESIGNER } });
    expect(api.headers.get("access-control-allow-origin")).toBe(DESIGNER);
  });

  it("serves the hosted page's own origin (this server) and callers without an Origin, with no CORS header", async () => {
    const visitor = new TestVisitor(server, shop);
    const same = await visitor.request("/sessions", { method: "POST", headers: { origin: server.url } });
    expect(same.status).toBe(201);
    expect(same.headers.get("access-control-allow-origin")).toBeNull();
    expect((await visitor.request("/config")).status).toBe(200);
  });

  it("answers any origin once the editor confirmed *", async () => {
    await server.request("/api/agents/shop/public", {
      method: "PUT",
      headers: admin,
      json: { enabled: true, title: "Shop", allowedOrigins: ["*"], allowAnyOrigin: true, showSteps: "names" },
    });
    const anywhere = await new TestVisitor(server, shop).request("/config", {
      headers: { origin: "https://anywhere.example.org" },
    });
    expect(anywhere.status).toBe(200);
    expect(anywhere.headers.get("access-control-allow-origin")).toBe("https://anywhere.example.org");
    await server.request("/api/agents/shop/public", {
      method: "PUT",
      headers: admin,
      json: { enabled: true, title: "Shop", showSteps: "names", ...settings },
    });
  });
});

describe("rate limits of a public chat", () => {
  it("limits each visitor (429 with Retry-After), and not the others", async () => {
    const limited = await publishAgent({
      server,
      headers: admin,
      spec: createTestAgent("limited", [createLookupTool("lookup_order")]),
      settings: { rateLimit: "2/min" },
    });
    const alice = new TestVisitor(server, limited);
    const sessionId = await alice.startSession(); // mints Alice: the chat's bucket only
    expect((await alice.request("/sessions", { method: "POST" })).status).toBe(201);
    const stream = await alice.stream(`/sessions/${sessionId}/turns`, "Where is order 5?");
    await stream.until("done");
    const third = await alice.request(`/sessions/${sessionId}/turns`, {
      method: "POST",
      json: { query: "More?" },
    });
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ code: "rate_limited", details: { scope: "visitor", limit: "2/min" } });
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await alice.request("/sessions", { method: "POST" })).status).toBe(429);
    const bob = new TestVisitor(server, limited);
    await bob.startSession();
    expect((await bob.request("/sessions", { method: "POST" })).status).toBe(201);
  });

  it("limits the whole chat with chatRateLimit, whoever asks", async () => {
    const busy = await publishAgent({
      server,
      headers: admin,
      spec: createTestAgent("busy", [createLookupTool("lookup_order")]),
      settings: { chatRateLimit: "3/min" },
    });
    for (let count = 0; count < 3; count++) await new TestVisitor(server, busy).startSession();
    const fourth = await new TestVisitor(server, busy).request("/sessions", { method: "POST" });
    expect(fourth.status).toBe(429);
    expect(fourth.body.details).toMatchObject({ scope: "chat", limit: "3/min" });
    expect(fourth.headers.get("retry-after")).not.toBeNull();
  });
});

describe("a server that needs no sign-in", () => {
  it("still refuses a publishable key or visitor token on its other routes", async () => {
    const local = await startTestServer({ exampleAgentsDir: null });
    try {
      const chat = await publishAgent({
        server: local,
        headers: {},
        spec: createTestAgent("local", [createLookupTool("lookup_order")]),
      });
      const visitor = new TestVisitor(local, chat);
      await visitor.startSession();
      expect((await local.request("/api/agents")).status).toBe(200);
      for (const credential of [chat.publishableKey, visitor.token!]) {
        const refused = await local.request("/api/agents", {
          headers: { authorization: `Bearer ${credential}` },
        });
        expect(refused.status).toBe(401);
        const run = await local.request("/v1/models", { headers: { authorization: `Bearer ${credential}` } });
        expect(run.status).toBe(401);
      }
    } finally {
      await local.stop();
    }
  });
});
