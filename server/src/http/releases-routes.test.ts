import { AgentSpec, ChannelsResponse, Release, RunRecord } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";

let server: TestServer;
const AGENT = "support-triage";
const releases = `/api/agents/${AGENT}/releases`;
const post = (url: string, json: unknown) => server.request(url, { method: "POST", json });

beforeAll(async () => {
  server = await startTestServer({ maxConcurrentRuns: 4 });
});
afterAll(() => server.stop());

/** Starts a run the way a caller would and waits for its end; answers its record. */
async function runOnce(json: Record<string, unknown>): Promise<RunRecord> {
  const started = await post("/api/runs", { agentId: AGENT, query: "Where is my refund?", ...json });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  await waitForRun(server, started.body.runId as string);
  return RunRecord.parse((await server.request(`/api/runs/${started.body.runId as string}`)).body);
}

describe("releases over REST", () => {
  it("gates on the suite, serves production to callers without a version, rolls back, and refuses bad input", async () => {
    const first = await runOnce({});
    expect(first.channel).toBeUndefined();
    expect((await post(`/api/agents/${AGENT}/tests`, { fromRunId: first.id })).status).toBe(201);
    const agent = (await server.request(`/api/agents/${AGENT}`)).body;
    const good = agent.version as number;
    const spec = AgentSpec.parse(agent.spec);
    // Waiting for a person breaks the saved case: a test run has nobody to approve.
    const broken = {
      ...spec,
      tools: spec.tools.map((tool) =>
        tool.name === "retrieve_docs" ? { ...tool, requiresApproval: true } : tool,
      ),
    };
    const saved = await server.request(`/api/agents/${AGENT}`, {
      method: "PUT",
      json: { spec: broken, baseVersion: good },
    });
    const bad = saved.body.version as number;

    const refused = await post(releases, { version: bad, channel: "production" });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "tests_failed", details: { testRunId: expect.any(String) } });
    expect(refused.body.details.failures[0].failures.length).toBeGreaterThan(0);

    const released = await post(releases, {
      version: good,
      channel: "production",
      notes: "first",
      expectedVersion: null,
    });
    expect(released.status, JSON.stringify(released.body)).toBe(201);
    expect(Release.parse(released.body)).toMatchObject({ version: good, testRunId: expect.any(String) });
    const channels = ChannelsResponse.parse((await server.request(`/api/agents/${AGENT}/channels`)).body);
    expect(channels.channels).toMatchObject([{ name: "production", version: good, notes: "first" }]);

    // Callers without a version get production; the designer's latest save is asked for by name.
    expect(await runOnce({})).toMatchObject({ agentVersion: good, channel: "production" });
    // The latest save pauses for approval: its run is read as created, not waited for.
    const latest = await post("/api/runs", {
      agentId: AGENT,
      query: "Where is my refund?",
      channel: "latest",
    });
    const latestRun = (await server.request(`/api/runs/${latest.body.runId as string}`)).body;
    expect(latestRun).toMatchObject({ agentVersion: bad });
    expect(latestRun.channel).toBeUndefined();
    await post(`/api/runs/${latest.body.runId as string}/cancel`, {});
    const session = await post("/api/sessions", { agentId: AGENT });
    expect(
      (await server.request(`/api/sessions/${session.body.sessionId as string}`)).body.agentVersion,
    ).toBe(good);

    const stale = await post(releases, { version: bad, channel: "production", expectedVersion: bad });
    expect(stale.body).toMatchObject({ code: "channel_moved", details: { channel: { version: good } } });

    const overridden = await post(releases, {
      version: bad,
      channel: "production",
      override: { reason: "hotfix" },
    });
    expect(overridden.body).toMatchObject({ version: bad, overrideReason: "hotfix", previousVersion: good });
    const audit = (await server.request("/api/audit?action=release.overridden")).body.entries;
    expect(audit[0]).toMatchObject({ details: { reason: "hotfix", version: bad } });

    const rolledBack = await post(`/api/agents/${AGENT}/channels/production/rollback`, { notes: "undo" });
    expect(rolledBack.body).toMatchObject({ kind: "rollback", version: good, previousVersion: bad });
    const again = await post(`/api/agents/${AGENT}/channels/production/rollback`, {});
    expect(again.body.code).toBe("no_previous_release");
    const history = (await server.request(`${releases}?channel=production`)).body.releases as Release[];
    expect(history.map((entry) => entry.version)).toEqual([good, bad, good]);

    const diff = await server.request(`/api/agents/${AGENT}/diff?from=production&to=${bad}`);
    expect(diff.body.diff.tools.changed).toEqual([
      { name: "retrieve_docs", changes: [{ path: "requiresApproval", from: false, to: true }] },
    ]);

    expect((await post(releases, { version: good, channel: "Prod!" })).status).toBe(400);
    expect((await post(releases, { version: good, channel: "latest" })).status).toBe(400);
    expect((await post(releases, { version: 999, channel: "staging" })).status).toBe(404);
    expect((await post("/api/agents/nobody/releases", { version: 1, channel: "staging" })).status).toBe(404);
    expect(await runOnce({ channel: "staging" }).catch((error: Error) => error.message)).toContain("404");
    const deleted = await server.request(`/api/agents/${AGENT}`, { method: "DELETE" });
    expect(deleted.body).toMatchObject({
      code: "agent_has_releases",
      details: { channels: [{ name: "production" }] },
    });
    expect((await server.request(`/api/agents/${AGENT}?force=true`, { method: "DELETE" })).status).toBe(204);
    expect((await server.request(`/api/agents/${AGENT}/channels`)).status).toBe(404);
  });
});
