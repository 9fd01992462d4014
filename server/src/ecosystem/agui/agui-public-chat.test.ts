import { randomUUID } from "node:crypto";
import { PUBLIC_MAX_MESSAGE_CHARS, type PublicChat, type PublicChatSettings } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookupTool, createTestAgent, publishAgent } from "../../testing/public-chat-test-kit.js";
import { startTestServer, type TestServer } from "../../testing/start-test-server.js";

const TOKEN = "token-for-agui-public-chat";
const admin = { authorization: `Bearer ${TOKEN}` };
const SHOP = "https://shop.example.com";
/** The designer's own cross-origin client (`WADDLE_CORS_ORIGIN`): no public chat lists it. */
const DESIGNER = "https://designer.example.com";
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ token: TOKEN, exampleAgentsDir: null, corsOrigin: DESIGNER });
});
afterAll(() => server.stop());

/** An agent of its own (so that its chat's buckets are its own) with a public chat of `settings`. */
function publish(id: string, settings: Partial<PublicChatSettings> = {}): Promise<PublicChat> {
  return publishAgent({
    server,
    headers: admin,
    spec: createTestAgent(id, [createLookupTool("lookup_order")]),
    settings: { allowedOrigins: [SHOP], ...settings },
  });
}

/** One AG-UI run of the chat's agent with its publishable key (or `authorization`), read to its end. */
function callAgui(
  chat: PublicChat,
  options: { threadId?: string; content?: string; headers?: Record<string, string>; path?: string } = {},
) {
  return server.request(options.path ?? `/agui/${chat.agentId}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${chat.publishableKey}`,
      accept: "text/event-stream",
      ...options.headers,
    },
    json: {
      threadId: options.threadId ?? randomUUID(),
      runId: randomUUID(),
      messages: [{ id: randomUUID(), role: "user", content: options.content ?? "Where is my order?" }],
      tools: [],
      context: [],
      state: {},
    },
  });
}

function expectAnswered(response: Awaited<ReturnType<typeof callAgui>>): void {
  expect(response.status, response.text).toBe(200);
  expect(response.text).toContain('"type":"RUN_FINISHED"');
}

describe("POST /agui/:id with a publishable key: the public chat's limits", () => {
  it("takes the chat's rateLimit from each address, whatever thread it names", async () => {
    const chat = await publish("per-address", { rateLimit: "2/min" });
    expectAnswered(await callAgui(chat));
    expectAnswered(await callAgui(chat));
    const refused = await callAgui(chat);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      code: "rate_limited",
      details: { scope: "visitor", limit: "2/min" },
    });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // An API key is no visitor: the chat's buckets are not its own.
    expectAnswered(await callAgui(chat, { headers: admin }));
  });

  it("caps the whole chat at its chatRateLimit", async () => {
    const chat = await publish("whole-chat", { rateLimit: "100/min", chatRateLimit: "1/min" });
    expectAnswered(await callAgui(chat));
    const refused = await callAgui(chat);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "rate_limited", details: { scope: "chat" } });
    expect(refused.headers.get("retry-after")).not.toBeNull();
  });

  it("refuses a message over the size limit with 413 and a thread past maxTurns with 409 session_full", async () => {
    const chat = await publish("short-talks", { maxTurns: 1 });
    const long = await callAgui(chat, { content: "x".repeat(PUBLIC_MAX_MESSAGE_CHARS + 1) });
    expect(long.status).toBe(413);
    expect(long.body).toMatchObject({
      code: "payload_too_large",
      details: { maxMessageChars: PUBLIC_MAX_MESSAGE_CHARS },
    });
    const threadId = randomUUID();
    expectAnswered(await callAgui(chat, { threadId }));
    const full = await callAgui(chat, { threadId });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ code: "session_full", details: { maxTurns: 1 } });
    expectAnswered(await callAgui(chat));
  });
});

describe("POST /agui/:id with a publishable key: its runs record the chat", () => {
  it("keeps the chat's publicId in the run's origin, as the chat's own turns do", async () => {
    const chat = await publish("recorded");
    const response = await callAgui(chat);
    expectAnswered(response);
    const runId = response.headers.get("x-waddle-run-id")!;
    const run = await server.request(`/api/runs/${runId}`, { headers: admin });
    expect(run.body).toMatchObject({
      publicId: chat.publicId,
      sessionId: expect.stringMatching(/^ses_agui_/),
    });
    const listed = await server.request(`/api/runs?agentId=${chat.agentId}`, { headers: admin });
    expect(listed.body.runs).toEqual([expect.objectContaining({ id: runId, publicId: chat.publicId })]);
    // A key's run of the same agent records no chat.
    const keyed = await callAgui(chat, { headers: admin });
    const keyedRun = await server.request(`/api/runs/${keyed.headers.get("x-waddle-run-id")}`, {
      headers: admin,
    });
    expect(keyedRun.body.publicId).toBeUndefined();
  });
});

describe("CORS of /agui", () => {
  let chat: PublicChat;
  beforeAll(async () => {
    chat = await publish("embedded");
  });

  const preflight = (origin: string, path = `/agui/${chat.agentId}`) =>
    server.request(path, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type, x-waddle-public-key, accept",
      },
    });

  it("answers a page of the chat's allowedOrigins: the preflight with its headers, then the run", async () => {
    for (const path of [`/agui/${chat.agentId}`, `/agui/${chat.agentId}@production`]) {
      const answer = await preflight(SHOP, path);
      expect(answer.status, path).toBe(204);
      expect(answer.headers.get("access-control-allow-origin")).toBe(SHOP);
      expect(answer.headers.get("access-control-allow-methods")).toMatch(/POST/);
      const allowed = answer.headers.get("access-control-allow-headers")!.split(", ");
      expect(allowed).toEqual(
        expect.arrayContaining(["authorization", "content-type", "x-waddle-public-key", "accept"]),
      );
    }
    const run = await callAgui(chat, { headers: { origin: SHOP } });
    expectAnswered(run);
    expect(run.headers.get("access-control-allow-origin")).toBe(SHOP);
    expect(run.headers.get("vary")).toMatch(/Origin/);
    expect(run.headers.get("access-control-expose-headers")).toMatch(/x-waddle-run-id/);
    // A refusal from an allowed page is readable there too.
    const long = await callAgui(chat, { headers: { origin: SHOP }, content: "y".repeat(5_000) });
    expect(long.status).toBe(413);
    expect(long.headers.get("access-control-allow-origin")).toBe(SHOP);
  });

  it("refuses a publishable key from any other origin with 403 and no CORS header, the designer's included", async () => {
    for (const origin of ["https://evil.example.com", "https://shop.example.com.evil.net", DESIGNER]) {
      const refused = await callAgui(chat, { headers: { origin } });
      expect(refused.status, origin).toBe(403);
      expect(refused.body.code).toBe("forbidden");
      expect(refused.headers.get("access-control-allow-origin"), origin).toBeNull();
    }
    const evil = await preflight("https://evil.example.com");
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
    // This server itself (the hosted page) and callers that send no Origin need no CORS.
    expectAnswered(await callAgui(chat, { headers: { origin: server.url } }));
  });

  it("keeps WADDLE_CORS_ORIGIN's CORS for other keys, and refuses them from a chat's origins as before", async () => {
    const answer = await preflight(DESIGNER);
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe(DESIGNER);
    const run = await callAgui(chat, { headers: { ...admin, origin: DESIGNER } });
    expectAnswered(run);
    expect(run.headers.get("access-control-allow-origin")).toBe(DESIGNER);
    const fromShop = await callAgui(chat, { headers: { ...admin, origin: SHOP } });
    expect(fromShop.status).toBe(403);
    expect(fromShop.body.message).toContain("WADDLE_CORS_ORIGIN");
    expect(fromShop.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers no preflight for an agent whose chat is off or missing", async () => {
    const off = await publish("switched-off", { enabled: false });
    expect(
      (await preflight(SHOP, `/agui/${off.agentId}`)).headers.get("access-control-allow-origin"),
    ).toBeNull();
    const created = await server.request("/api/agents", {
      method: "POST",
      headers: admin,
      json: createTestAgent("unpublished", []),
    });
    expect(created.status).toBe(201);
    expect(
      (await preflight(SHOP, "/agui/unpublished")).headers.get("access-control-allow-origin"),
    ).toBeNull();
  });
});
