import type { PublicChat } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookupTool, createTestAgent, TestVisitor } from "../testing/public-chat-test-kit.js";
import { getMissingPartsReason } from "../testing/real-parts.js";
import { startTestCluster, type ClusterInstance, type TestCluster } from "../testing/start-test-cluster.js";
import type { TestServer } from "../testing/start-test-server.js";

const skip = getMissingPartsReason(["postgres", "redis"]);

/** An instance as the public chat's test kit reaches a server: its URL and a JSON fetch with headers. */
function asServer(instance: ClusterInstance): TestServer {
  const request: TestServer["request"] = async (pathname, init = {}) => {
    const { json, headers, ...rest } = init;
    const response = await fetch(`${instance.url}${pathname}`, {
      ...rest,
      headers: {
        ...(json === undefined ? {} : { "content-type": "application/json" }),
        ...(headers as Record<string, string>),
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: text ? JSON.parse(text) : undefined,
      headers: response.headers,
      text,
    };
  };
  return { url: instance.url, request } as unknown as TestServer;
}

/** `WADDLE_TEST_SCALE_OUT=only npx vitest run server/src/scale/scale-out-public-chat.test.ts` */
describe.skipIf(skip)("a public chat in queue mode: two instances serve its visitors as one", () => {
  let cluster: TestCluster;
  let a: TestServer;
  let b: TestServer;
  let chat: PublicChat;
  beforeAll(async () => {
    cluster = await startTestCluster();
    a = asServer(await cluster.start("all"));
    b = asServer(await cluster.start("all"));
    const spec = createTestAgent("refunds", [
      createLookupTool("refund", { requiresApproval: true, sideEffects: "write" }),
    ]);
    expect((await a.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    const put = await a.request("/api/agents/refunds/public", {
      method: "PUT",
      json: { enabled: true, title: "Refunds", allowedOrigins: [], showSteps: "names", rateLimit: "3/min" },
    });
    expect(put.status, put.text).toBe(200);
    chat = put.body;
  }, 120_000);
  afterAll(async () => {
    await cluster?.destroy();
  });

  it("takes a visitor token minted on one instance on the other, and limits the visitor across both", async () => {
    const onA = new TestVisitor(a, chat);
    const first = await onA.startSession();
    const onB = new TestVisitor(b, chat, onA.token);
    expect((await onB.request(`/sessions/${first}`)).status).toBe(200);
    const statuses: number[] = [];
    for (const visitor of [onB, onA, onB, onA, onB]) {
      statuses.push((await visitor.request("/sessions", { method: "POST" })).status);
    }
    // Each instance alone would take 3 of this visitor's conversations: together they take 3 of 5.
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
  });

  it("streams a turn paused on one instance to its answer once approved through the other", async () => {
    const visitor = new TestVisitor(a, chat);
    const sessionId = await visitor.startSession();
    const stream = await visitor.stream(`/sessions/${sessionId}/turns`, "Refund my order");
    const waiting = await stream.until("waiting");
    const runId = (waiting[0] as { runId: string }).runId;
    const paused = await cluster.waitForRun(runId, (run) => run.status === "paused");
    const resumed = await b.request(`/api/runs/${runId}/resume`, {
      method: "POST",
      json: { resumeToken: paused.pause!.resumeToken, decision: "approve" },
    });
    expect(resumed.status, resumed.text).toBe(202);
    const rest = await stream.until("done");
    expect(rest[0]).toEqual({ type: "resumed" });
    expect(rest.at(-1)).toEqual({ type: "done", status: "finished" });
    expect(stream.raw).not.toContain("acct-SECRET-4242");
  });

  it("refuses a key rotated on one instance at once on the other", async () => {
    const rotated = await b.request("/api/agents/refunds/public/rotate-key", { method: "POST" });
    expect(rotated.status).toBe(200);
    expect((await new TestVisitor(a, chat).request("/config")).status).toBe(404);
    expect((await new TestVisitor(a, rotated.body).request("/config")).status).toBe(200);
  });
});
