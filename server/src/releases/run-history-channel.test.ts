import { AgentSpec } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ maxConcurrentRuns: 4 });
  const spec = AgentSpec.parse({
    version: 1,
    id: "history-agent",
    name: "History agent",
    tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true } } }],
  });
  expect((await server.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
  const json = { spec: { ...spec, name: "History agent v2" }, baseVersion: 1 };
  expect((await server.request(`/api/agents/${spec.id}`, { method: "PUT", json })).status).toBe(200);
  for (const [version, channel] of [
    [1, "production"],
    [2, "staging"],
  ] as const) {
    const answer = await server.request(`/api/agents/${spec.id}/releases`, {
      method: "POST",
      json: { version, channel },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  }
});
afterAll(() => server.stop());

/** Starts a run or a turn and waits for it to end, so that the session's next turn may start. */
async function runToEnd(json: Record<string, unknown>): Promise<string> {
  const started = await server.request("/api/runs", { method: "POST", json });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  await waitForRun(server, started.body.runId as string);
  return started.body.runId as string;
}

const listIds = async (query: string) =>
  ((await server.request(`/api/runs?${query}`)).body.runs as { id: string }[]).map((run) => run.id);

describe("history by channel", () => {
  it("lists runs by the channel they resolved, a session's turns with the channel it was created on", async () => {
    const agentId = "history-agent";
    const production = await runToEnd({ agentId, query: "default" });
    const staging = await runToEnd({ agentId, query: "staging", channel: "staging" });
    const latest = await runToEnd({ agentId, query: "latest", channel: "latest" });
    const pinned = await runToEnd({ agentId, query: "pinned", agentVersion: 1 });

    const created = await server.request("/api/sessions", { method: "POST", json: { agentId } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sessionId = created.body.sessionId as string;
    const session = (await server.request(`/api/sessions/${sessionId}`)).body;
    expect(session).toMatchObject({ agentVersion: 1, channel: "production" });
    const turns = [
      await runToEnd({ sessionId, query: "first turn" }),
      await runToEnd({ sessionId, query: "second turn" }),
    ];
    // A turn naming another version is not what the channel serves: it records none.
    const other = await runToEnd({ sessionId, query: "on v2", agentVersion: 2 });

    expect(await listIds("channel=production")).toEqual([...turns].reverse().concat(production));
    expect(await listIds(`channel=staging&agentId=${agentId}`)).toEqual([staging]);
    expect(await listIds("channel=canary")).toEqual([]);
    const all = await listIds(`agentId=${agentId}`);
    for (const runId of [latest, pinned, other]) expect(all).toContain(runId);
    expect((await server.request(`/api/runs/${turns[0]}`)).body).toMatchObject({
      sessionId,
      agentVersion: 1,
      channel: "production",
    });
    expect((await server.request(`/api/runs/${other}`)).body).not.toHaveProperty("channel");

    const latestSession = await server.request("/api/sessions", {
      method: "POST",
      json: { agentId, channel: "latest" },
    });
    const latestRecord = (await server.request(`/api/sessions/${latestSession.body.sessionId}`)).body;
    expect(latestRecord).toMatchObject({ agentVersion: 2 });
    expect(latestRecord).not.toHaveProperty("channel");
  });

  it("refuses a channel name outside the pattern with 400 naming the field", async () => {
    const answer = await server.request("/api/runs?channel=Not%20A%20Channel");
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain("channel");
  });
});
