import type { PublicChat } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";
import {
  createLookupTool,
  createTestAgent,
  publishAgent,
  TestVisitor,
} from "../testing/public-chat-test-kit.js";

const TOKEN = "token-for-the-public-chat-pauses";
const admin = { authorization: `Bearer ${TOKEN}` };
let server: TestServer;
let refunds: PublicChat;

beforeAll(async () => {
  server = await startTestServer({ token: TOKEN, exampleAgentsDir: null });
  refunds = await publishAgent({
    server,
    headers: admin,
    spec: createTestAgent("refunds", [
      createLookupTool("refund", {
        sideEffects: "write",
        requiresApproval: true,
        impl: { kind: "mock", output: { refunded: true } },
      }),
    ]),
    settings: { showSteps: "full" },
  });
});
afterAll(() => server.stop());

describe("a public turn that waits for a person", () => {
  it("says whom it waits for (never the tool's args), stays open, and goes on once approved in the designer", async () => {
    const visitor = new TestVisitor(server, refunds);
    const sessionId = await visitor.startSession();
    const stream = await visitor.stream(`/sessions/${sessionId}/turns`, "Refund my order");
    const before = await stream.until("waiting");
    const runId = (before[0] as { runId: string }).runId;
    expect(before.at(-1)).toEqual({
      type: "waiting",
      message: "Waiting for a team member to approve refund",
    });
    // The turn's args are the tool's: even with showSteps "full", no step shows them before it runs.
    expect(stream.raw).not.toContain("acct-SECRET-4242");
    expect(before.some((event) => event.type === "done")).toBe(false);
    const paused = await waitForRun(server, runId, new Set(["paused"]));
    // The page reloads meanwhile: the transcript and the stream say the same, still without the args.
    const transcript = await visitor.request(`/sessions/${sessionId}`);
    expect(transcript.body.turns[0]).toMatchObject({
      status: "waiting",
      waitingFor: "Waiting for a team member to approve refund",
      answer: null,
    });
    expect(transcript.text).not.toContain("acct-SECRET-4242");
    const follower = await visitor.stream(`/sessions/${sessionId}/stream`);
    expect((await follower.until("waiting")).at(-1)).toMatchObject({ type: "waiting" });
    // A person approves through the designer's own route; both streams go on to the answer.
    const resumed = await server.request(`/api/runs/${runId}/resume`, {
      method: "POST",
      headers: admin,
      json: { resumeToken: paused.pause!.resumeToken, decision: "approve" },
    });
    expect(resumed.status, resumed.text).toBe(202);
    const after = await stream.until("done");
    expect(after[0]).toEqual({ type: "resumed" });
    const steps = after.flatMap((event) => (event.type === "step" ? [event.step] : []));
    // showSteps "full": once run, the step shows its args and result.
    expect(steps.at(-1)).toEqual({
      name: "refund",
      status: "done",
      args: { account: "acct-SECRET-4242" },
      result: { refunded: true },
    });
    expect(after.find((event) => event.type === "answer")).toMatchObject({ runId });
    expect(after.at(-1)).toEqual({ type: "done", status: "finished" });
    expect((await follower.until("done")).at(-1)).toEqual({ type: "done", status: "finished" });
  });

  it("shows no steps with showSteps none, and names only with names, through the pause", async () => {
    for (const [showSteps, expected] of [
      ["none", []],
      [
        "names",
        [
          { name: "refund", status: "running" },
          { name: "refund", status: "done" },
        ],
      ],
    ] as const) {
      await server.request("/api/agents/refunds/public", {
        method: "PUT",
        headers: admin,
        json: { enabled: true, title: "Refunds", allowedOrigins: [], showSteps },
      });
      const visitor = new TestVisitor(server, refunds);
      const sessionId = await visitor.startSession();
      const stream = await visitor.stream(`/sessions/${sessionId}/turns`, "Refund my order");
      const runId = ((await stream.until("waiting"))[0] as { runId: string }).runId;
      const paused = await waitForRun(server, runId, new Set(["paused"]));
      await server.request(`/api/runs/${runId}/resume`, {
        method: "POST",
        headers: admin,
        json: { resumeToken: paused.pause!.resumeToken, decision: "approve" },
      });
      const events = await stream.until("done");
      expect(events.flatMap((event) => (event.type === "step" ? [event.step] : []))).toEqual(expected);
      expect(stream.raw).not.toContain("acct-SECRET-4242");
      expect(stream.raw).not.toMatch(/"(args|result)":/);
      const transcript = await visitor.request(`/sessions/${sessionId}`);
      expect(transcript.body.turns[0].steps).toEqual(expected.slice(1));
    }
  });

  it("leaves the run waiting when the visitor goes away", async () => {
    const visitor = new TestVisitor(server, refunds);
    const sessionId = await visitor.startSession();
    const stream = await visitor.stream(`/sessions/${sessionId}/turns`, "Refund my order");
    const runId = ((await stream.until("waiting"))[0] as { runId: string }).runId;
    await stream.close();
    expect((await waitForRun(server, runId, new Set(["paused"]))).status).toBe("paused");
    expect((await server.request(`/api/runs/${runId}`, { headers: admin })).body.status).toBe("paused");
    await server.request(`/api/runs/${runId}/cancel`, { method: "POST", headers: admin });
  });
});
