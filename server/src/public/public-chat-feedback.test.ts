import type { PublicChat } from "@waddle/protocol";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import {
  createLookupTool,
  createTestAgent,
  publishAgent,
  TestVisitor,
} from "../testing/public-chat-test-kit.js";

const TOKEN = "token-for-the-public-chat-feedback";
const admin = { authorization: `Bearer ${TOKEN}` };
let server: TestServer;
let orders: PublicChat;

beforeAll(async () => {
  server = await startTestServer({ token: TOKEN, exampleAgentsDir: null });
  orders = await publishAgent({
    server,
    headers: admin,
    spec: createTestAgent("orders", [createLookupTool("lookup_order")]),
  });
});
afterAll(() => server.stop());

/** A visitor's finished turn: its session and run. */
async function answeredTurn(visitor: TestVisitor, query: string) {
  const sessionId = await visitor.startSession();
  const stream = await visitor.stream(`/sessions/${sessionId}/turns`, query);
  const events = await stream.until("done");
  return { sessionId, runId: (events[0] as { runId: string }).runId };
}

/** `waddle_run_ratings{agent_id, rating}` as `/metrics` says it now. */
async function ratingsMetric(): Promise<Record<string, number>> {
  const text = (await server.request("/metrics", { headers: admin })).text;
  const family = parsePrometheusTextFormat(text).find((entry) => entry.name === "waddle_run_ratings");
  const counts: Record<string, number> = {};
  for (const metric of (family?.metrics ?? []) as { labels: Record<string, string>; value: string }[]) {
    counts[`${metric.labels["agent_id"]}:${metric.labels["rating"]}`] = Number(metric.value);
  }
  return counts;
}

describe("POST /public/:publicId/sessions/:id/feedback", () => {
  it("stores the rating with the run: History filters by it and shows the comment, /metrics counts it", async () => {
    const visitor = new TestVisitor(server, orders);
    const liked = await answeredTurn(visitor, "Where is order 1?");
    const disliked = await answeredTurn(visitor, "Where is order 2?");
    const unrated = await answeredTurn(visitor, "Where is order 3?");
    const rate = (turn: { sessionId: string }, json: unknown) =>
      visitor.request(`/sessions/${turn.sessionId}/feedback`, { method: "POST", json });
    expect((await rate(liked, { runId: liked.runId, rating: "up" })).status).toBe(204);
    expect((await rate(disliked, { runId: disliked.runId, rating: "up" })).status).toBe(204);
    // A visitor may change their mind: the latest rating stands.
    const down = await rate(disliked, {
      runId: disliked.runId,
      rating: "down",
      comment: " Wrong order number ",
    });
    expect(down.status).toBe(204);
    const listed = async (rating: string) =>
      (await server.request(`/api/runs?agentId=orders&rating=${rating}`, { headers: admin })).body.runs;
    expect((await listed("up")).map((run: { id: string }) => run.id)).toEqual([liked.runId]);
    const downs = await listed("down");
    expect(downs.map((run: { id: string }) => run.id)).toEqual([disliked.runId]);
    expect(downs[0].rating).toEqual({
      rating: "down",
      comment: "Wrong order number",
      ratedAt: expect.any(String),
    });
    const all = (await server.request("/api/runs?agentId=orders", { headers: admin })).body.runs;
    expect(all.find((run: { id: string }) => run.id === unrated.runId).rating).toBeUndefined();
    expect(all.find((run: { id: string }) => run.id === liked.runId).rating.rating).toBe("up");
    const one = await server.request(`/api/runs/${disliked.runId}`, { headers: admin });
    expect(one.body.rating).toMatchObject({ rating: "down", comment: "Wrong order number" });
    expect((await visitor.request(`/sessions/${disliked.sessionId}`)).body.turns[0].rating).toBe("down");
    expect(await ratingsMetric()).toEqual({ "orders:up": 1, "orders:down": 1 });
    // Save as test works from a rated run as from any run.
    const saved = await server.request("/api/agents/orders/tests", {
      method: "POST",
      headers: admin,
      json: { fromRunId: disliked.runId },
    });
    expect(saved.status, saved.text).toBe(201);
    expect((await server.request("/api/runs?rating=sideways", { headers: admin })).status).toBe(400);
  });

  it("refuses a run of another conversation, a bad rating, a long comment, and another visitor", async () => {
    const visitor = new TestVisitor(server, orders);
    const mine = await answeredTurn(visitor, "Where is order 4?");
    const other = await answeredTurn(new TestVisitor(server, orders), "Where is order 5?");
    const rate = (json: unknown, as = visitor, sessionId = mine.sessionId) =>
      as.request(`/sessions/${sessionId}/feedback`, { method: "POST", json });
    const notHere = await rate({ runId: other.runId, rating: "up" });
    expect(notHere.status).toBe(404);
    expect((await rate({ runId: mine.runId, rating: "meh" })).status).toBe(400);
    expect((await rate({ runId: mine.runId, rating: "up", comment: "x".repeat(2_001) })).status).toBe(400);
    expect((await rate({ runId: mine.runId, rating: "up", score: 5 })).status).toBe(400);
    expect((await rate({ rating: "up" })).body.code).toBe("validation_failed");
    const stranger = new TestVisitor(server, orders);
    await stranger.startSession();
    expect((await rate({ runId: mine.runId, rating: "down" }, stranger)).status).toBe(404);
    expect((await server.request(`/api/runs/${mine.runId}`, { headers: admin })).body.rating).toBeUndefined();
  });
});
