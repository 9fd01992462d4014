import { AgentSpec } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
});

describe("a subagent that pauses", () => {
  it("fails its tool call and leaves no paused state behind, since nobody can resume it", async () => {
    const saved: { token: string; runId?: string }[] = [];
    const savePausedState = server.store.savePausedState.bind(server.store);
    server.store.savePausedState = (options) => {
      saved.push({ token: options.token, ...(options.runId ? { runId: options.runId } : {}) });
      return savePausedState(options);
    };
    const spec = AgentSpec.parse({
      version: 1,
      id: "mail-delegator",
      name: "Mail delegator",
      tools: [
        {
          name: "ask_mailer",
          argsSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
          impl: { kind: "agent", agentId: "email-approval" },
        },
      ],
      hints: { ordering_hints: ["ask_mailer"] },
    });
    expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    const started = await server.request("/api/runs", {
      method: "POST",
      json: { agentId: "mail-delegator", query: "Email Dana that the report is ready" },
    });
    const runId = started.body.runId as string;
    await waitForRun(server, runId);
    const events = (await server.store.listEvents(runId)).map((event) => event.data);
    expect(events).toContainEqual(
      expect.objectContaining({ failure: expect.objectContaining({ error_code: "subagent_paused" }) }),
    );
    const subagentStates = saved.filter((entry) => entry.runId === `${runId}-sub`);
    expect(subagentStates.length).toBeGreaterThan(0);
    for (const { token } of subagentStates) expect(await server.store.loadPausedState(token)).toBeUndefined();
  });
});
