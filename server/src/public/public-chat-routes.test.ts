import type { PublicChat, PublicStreamEvent } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";
import {
  createLookupTool,
  createTestAgent,
  publishAgent,
  TestVisitor,
} from "../testing/public-chat-test-kit.js";

const TOKEN = "token-for-the-public-chat-routes";
const admin = { authorization: `Bearer ${TOKEN}` };
let server: TestServer;
let orders: PublicChat;

const typesOf = (events: PublicStreamEvent[]) => [...new Set(events.map((event) => event.type))];

beforeAll(async () => {
  server = await startTestServer({ token: TOKEN, exampleAgentsDir: null });
  orders = await publishAgent({
    server,
    headers: admin,
    spec: createTestAgent("orders", [createLookupTool("lookup_order")]),
    settings: {
      title: "Order help",
      welcome: "Ask me about an order.",
      starters: ["Where is my order?"],
      theme: { accent: "#2563eb" },
      maxTurns: 2,
    },
  });
});
afterAll(() => server.stop());

describe("GET /public/:publicId/config", () => {
  it("answers what the page shows first, with the one message size limit", async () => {
    const config = await new TestVisitor(server, orders).request("/config");
    expect(config.status).toBe(200);
    expect(config.body).toEqual({
      title: "Order help",
      welcome: "Ask me about an order.",
      starters: ["Where is my order?"],
      theme: { accent: "#2563eb", logoUrl: null },
      showSteps: "names",
      maxTurns: 2,
      maxMessageChars: 4000,
    });
  });

  it("answers the config without a key (the embed's check), and refuses a rotated key sent with it", async () => {
    const page = await server.request(`/public/${orders.publicId}/config`);
    expect(page.status).toBe(200);
    expect(page.body.title).toBe("Order help");
    const stale = await server.request(`/public/${orders.publicId}/config`, {
      headers: { "x-waddle-public-key": `wpk_${"a".repeat(12)}_${"b".repeat(43)}` },
    });
    expect(stale.status).toBe(404);
    // only the config: a conversation still needs the key
    expect((await server.request(`/public/${orders.publicId}/sessions`, { method: "POST" })).status).toBe(
      404,
    );
  });

  it("is 404 for an unknown public id, a missing or wrong key, and a disabled chat, on every public route", async () => {
    const right = new TestVisitor(server, orders);
    const sessionId = await right.startSession();
    const probes = [
      ["GET", "/config"],
      ["POST", "/sessions"],
      ["GET", `/sessions/${sessionId}`],
      ["GET", `/sessions/${sessionId}/stream`],
      ["POST", `/sessions/${sessionId}/turns`],
      ["POST", `/sessions/${sessionId}/feedback`],
    ] as const;
    const wrongKey = `wpk_${"a".repeat(12)}_${"b".repeat(43)}`;
    const refusals = [
      new TestVisitor(server, {
        publicId: "pub_00000000000000000000",
        publishableKey: orders.publishableKey,
      }),
      new TestVisitor(server, { publicId: "orders", publishableKey: orders.publishableKey }),
      new TestVisitor(server, { publicId: orders.publicId, publishableKey: wrongKey }, right.token),
      new TestVisitor(server, { publicId: orders.publicId, publishableKey: "" }, right.token),
    ];
    for (const visitor of refusals) {
      for (const [method, path] of probes) {
        const response = await visitor.request(path, { method, ...(method === "POST" ? { json: {} } : {}) });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.body.code).toBe("not_found");
      }
    }
    const off = await server.request("/api/agents/orders/public", {
      method: "PUT",
      headers: admin,
      json: { enabled: false, title: "Order help", allowedOrigins: [], showSteps: "names", maxTurns: 2 },
    });
    expect(off.status).toBe(200);
    for (const [method, path] of probes) {
      expect((await right.request(path, { method })).status, `${method} ${path} while off`).toBe(404);
    }
    await server.request("/api/agents/orders/public", {
      method: "PUT",
      headers: admin,
      json: {
        ...off.body,
        enabled: true,
        agentId: undefined,
        publicId: undefined,
        publishableKey: undefined,
        updatedAt: undefined,
        updatedBy: undefined,
      },
    });
    expect((await right.request("/config")).status).toBe(200);
  });
});

describe("visitors", () => {
  it("each see only their own conversations; another's session is 404 and a forged token 401", async () => {
    const alice = new TestVisitor(server, orders);
    const bob = new TestVisitor(server, orders);
    const aliceFirst = await alice.startSession();
    const aliceToken = alice.token!;
    expect(aliceToken).toMatch(/^wpv_/);
    // With her token, Alice's next conversation is hers too: the same visitor, the same token.
    const aliceSecond = await alice.startSession();
    expect(alice.token).toBe(aliceToken);
    const bobFirst = await bob.startSession();
    expect(bob.token).not.toBe(aliceToken);
    for (const id of [aliceFirst, aliceSecond])
      expect((await alice.request(`/sessions/${id}`)).status).toBe(200);
    expect((await bob.request(`/sessions/${bobFirst}`)).status).toBe(200);
    for (const [visitor, id] of [
      [bob, aliceFirst],
      [bob, aliceSecond],
      [alice, bobFirst],
    ] as const) {
      const read = await visitor.request(`/sessions/${id}`);
      expect(read.status).toBe(404);
      expect(read.text).not.toContain(id);
      expect(
        (await visitor.request(`/sessions/${id}/turns`, { method: "POST", json: { query: "hi" } })).status,
      ).toBe(404);
      expect((await visitor.request(`/sessions/${id}/stream`)).status).toBe(404);
    }
    // A third visitor with a forged token: another visitor id under Alice's signature, or an altered one.
    const [, visitorId, signature] = /^wpv_([0-9a-f]{32})_(.+)$/.exec(aliceToken)!;
    const forgedId = new TestVisitor(server, orders, `wpv_${"0".repeat(32)}_${signature}`);
    const altered = new TestVisitor(
      server,
      orders,
      `wpv_${visitorId}_${signature!.slice(0, -2)}${signature!.endsWith("AA") ? "BB" : "AA"}`,
    );
    for (const forged of [forgedId, altered]) {
      const read = await forged.request(`/sessions/${aliceFirst}`);
      expect(read.status).toBe(401);
      expect(read.body.code).toBe("unauthorized");
      expect((await forged.request("/sessions", { method: "POST" })).status).toBe(401);
    }
    const none = await new TestVisitor(server, orders).request(`/sessions/${aliceFirst}`);
    expect(none.status).toBe(401);
    expect(none.body.message).toMatch(/visitorToken/);
    // The sessions are ordinary sessions of the agent, on the chat's channel (the latest save here).
    const session = await server.request(`/api/sessions/${aliceFirst}`, { headers: admin });
    expect(session.body).toMatchObject({ agentId: "orders", agentVersion: 1 });
  });
});

describe("POST /public/:publicId/sessions/:id/turns", () => {
  it("streams the answer as it is written, with step names only, and records the turn as the chat's", async () => {
    const visitor = new TestVisitor(server, orders);
    const sessionId = await visitor.startSession();
    const stream = await visitor.stream(`/sessions/${sessionId}/turns`, "Where is order 17?");
    expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = await stream.until("done");
    expect(await stream.next()).toBeUndefined();
    const started = events[0];
    expect(started).toMatchObject({ type: "turn_started", turn: 1 });
    const runId = (started as { runId: string }).runId;
    expect(typesOf(events)).toEqual(["turn_started", "step", "delta", "answer", "done"]);
    const answer = events.find((event) => event.type === "answer") as { answer: string };
    const streamed = events.flatMap((event) => (event.type === "delta" ? [event.text] : [])).join("");
    expect(streamed.length).toBeGreaterThan(0);
    expect(answer.answer.startsWith(streamed.slice(0, 20))).toBe(true);
    expect(events.at(-1)).toEqual({ type: "done", status: "finished" });
    const steps = events.flatMap((event) => (event.type === "step" ? [event.step] : []));
    expect(steps).toEqual([
      { name: "lookup_order", status: "running" },
      { name: "lookup_order", status: "done" },
    ]);
    expect(stream.raw).not.toContain("acct-SECRET-4242");
    const run = (await server.request(`/api/runs/${runId}`, { headers: admin })).body;
    expect(run).toMatchObject({
      sessionId,
      turn: 1,
      kind: "run",
      publicId: orders.publicId,
      status: "finished",
    });
    const history = await server.request("/api/runs?agentId=orders", { headers: admin });
    expect(history.body.runs.map((entry: { id: string }) => entry.id)).toContain(runId);
    const transcript = await visitor.request(`/sessions/${sessionId}`);
    expect(transcript.body).toEqual({
      sessionId,
      turns: [
        {
          runId,
          turn: 1,
          query: "Where is order 17?",
          status: "finished",
          answer: answer.answer,
          waitingFor: null,
          steps: [{ name: "lookup_order", status: "done" }],
          rating: null,
        },
      ],
      turnsLeft: 1,
    });
    // After a reload: the finished turn again, from its start.
    const again = await visitor.stream(`/sessions/${sessionId}/stream`);
    const replayed = await again.until("done");
    expect(replayed.filter((event) => event.type !== "delta")).toEqual(
      events.filter((event) => event.type !== "delta"),
    );
  });

  it("refuses a message over maxMessageChars with 413, a full conversation with 409 session_full, bad bodies with 400", async () => {
    const visitor = new TestVisitor(server, orders);
    const sessionId = await visitor.startSession();
    const send = (json: unknown) => visitor.request(`/sessions/${sessionId}/turns`, { method: "POST", json });
    const long = await send({ query: "x".repeat(4001) });
    expect(long.status).toBe(413);
    expect(long.body).toMatchObject({ code: "payload_too_large", details: { maxMessageChars: 4000 } });
    expect((await send({ query: `  ${"x".repeat(4000)}  ` })).status).not.toBe(413);
    await waitForIdle(visitor, sessionId);
    expect((await send({})).status).toBe(400);
    expect((await send({ query: "   " })).body.code).toBe("validation_failed");
    expect((await send({ query: "hi", context: { admin: true } })).status).toBe(400);
    expect((await send({ query: 5 })).status).toBe(400);
    const choosy = await visitor.request("/sessions", { method: "POST", json: { agentId: "another" } });
    expect(choosy.status).toBe(400);
    expect(choosy.body.details.issues[0].code).toBe("unrecognized_keys");
    const notJson = await visitor.request(`/sessions/${sessionId}/turns`, {
      method: "POST",
      body: "{query",
      headers: { "content-type": "application/json" },
    });
    expect(notJson.body.code).toBe("invalid_json");
    const stream = await visitor.stream(`/sessions/${sessionId}/turns`, "Second question");
    await stream.until("done");
    const full = await send({ query: "Third question" });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ code: "session_full", details: { maxTurns: 2 } });
    expect((await visitor.request(`/sessions/${sessionId}`)).body.turnsLeft).toBe(0);
  });

  it("refuses a second message while the first is answered, without the session's record", async () => {
    const slow = await publishAgent({
      server,
      headers: admin,
      spec: createTestAgent("slow-orders", [
        createLookupTool("lookup_order", { impl: { kind: "mock", output: { ok: 1 }, latencyMs: 60_000 } }),
      ]),
    });
    const visitor = new TestVisitor(server, slow);
    const sessionId = await visitor.startSession();
    const first = await visitor.stream(`/sessions/${sessionId}/turns`, "Where is order 18?");
    const started = (await first.until("step")).find((event) => event.type === "turn_started");
    const second = await visitor.request(`/sessions/${sessionId}/turns`, {
      method: "POST",
      json: { query: "And?" },
    });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      code: "invalid_state",
      message: expect.stringMatching(/still being answered/),
      details: { reason: "busy" },
    });
    // A team member stops it in the designer: the visitor is told, without why.
    const runId = (started as { runId: string }).runId;
    await server.request(`/api/runs/${runId}/cancel`, { method: "POST", headers: admin });
    const end = await first.until("done");
    expect(end.slice(-2)).toEqual([
      { type: "error", code: "turn_cancelled", message: "A team member stopped this answer." },
      { type: "done", status: "failed" },
    ]);
  });
});

/** The session once its last turn ended. */
async function waitForIdle(visitor: TestVisitor, sessionId: string): Promise<void> {
  const last = (await visitor.request(`/sessions/${sessionId}`)).body.turns.at(-1);
  if (last) await waitForRun(server, last.runId);
}
