import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentSpec, type RunEvent } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnServer, type SpawnedServer } from "../testing/spawn-server.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";
import { getMcpFixtureStdioConfig } from "../testing/mcp-fixture-server.js";
import type { ToolRunContext } from "@waddle/planner";
import { getWaitingTask } from "./a2a-tool.js";
import { A2A_QUERY_ARGS, createA2aCallerAgent, getRemoteTaskState } from "../testing/a2a-caller-agent.js";

// Waddle calls Waddle: a second server, in its own process, is the remote A2A agent.
describe("a2a tools: Waddle calls Waddle across two server processes", () => {
  let remote: SpawnedServer;
  let local: TestServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "waddle-a2a-remote-"));
    remote = await spawnServer({ env: { WADDLE_DATA_DIR: dataDir } });
    local = await startTestServer({ httpAllow: [new URL(remote.url).host] });
  }, 60_000);
  afterAll(async () => {
    await local?.stop();
    await remote?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs the remote agent as a tool, its status streamed into the run's events", async () => {
    const spec = createA2aCallerAgent("asks-triage", `${remote.url}/a2a/support-triage`);
    expect((await local.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    const check = await local.request("/api/agents/server-check", { method: "POST", json: spec });
    expect(check.body.issues).toEqual([]);
    const started = await local.request("/api/runs", {
      method: "POST",
      json: { agentId: "asks-triage", query: "My invoice is wrong" },
    });
    const run = await waitForRun(local, started.body.runId);
    expect(run.status).toBe("finished");
    const events = (await local.store.listEvents(run.id)) as RunEvent[];
    const end = events.find((event) => event.type === "tool_end");
    expect(JSON.stringify(end?.data)).toContain("Duplicate billing");
    const progress = events.filter((event) => event.type === "tool_progress");
    expect(JSON.stringify(progress.map((event) => event.data))).toContain("completed");
  });

  it("a remote input-required pauses the run; the person's answer is forwarded and the remote task ends", async () => {
    const spec = createA2aCallerAgent("asks-mailer", `${remote.url}/a2a/email-approval`);
    expect((await local.request("/api/agents", { method: "POST", json: spec })).status).toBe(201);
    const started = await local.request("/api/runs", {
      method: "POST",
      json: { agentId: "asks-mailer", query: "Email Dana the report" },
    });
    const paused = await waitForRun(local, started.body.runId, new Set(["paused", "finished", "failed"]));
    expect(paused.status).toBe("paused");
    expect(paused.pause).toMatchObject({
      reason: "await_input",
      payload: {
        kind: "a2a_input_required",
        taskId: expect.any(String),
        data: { reason: "approval_required" },
      },
    });
    const remoteTaskId = paused.pause!.payload.taskId as string;
    const resumed = await local.request(`/api/runs/${paused.id}/resume`, {
      method: "POST",
      json: { resumeToken: paused.pause!.resumeToken, decision: "approve", userInput: "Yes, send it" },
    });
    expect(resumed.status).toBe(202);
    const run = await waitForRun(local, paused.id);
    expect(run.status).toBe("finished");
    // The remote task was answered and completed.
    expect(await getRemoteTaskState(`${remote.url}/a2a/email-approval`, remoteTaskId)).toBe("completed");
  });
});

describe("a2a cards: bad cards and hosts are a tool error and a validation issue", () => {
  let server: TestServer;
  let cards: Server;
  let base: string;
  beforeAll(async () => {
    cards = createServer((request, response) => {
      response.setHeader("content-type", "application/json");
      if (request.url?.startsWith("/big"))
        response.end(JSON.stringify({ name: "x".repeat(300_000), skills: [] }));
      else if (request.url?.startsWith("/notjson")) response.end("<html>hello</html>");
      else response.end(JSON.stringify({ hello: "world" }));
    });
    await new Promise<void>((resolve) => cards.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(cards.address() as AddressInfo).port}`;
    server = await startTestServer({
      httpAllow: [new URL(base).host],
      mcpServers: [getMcpFixtureStdioConfig("fixture")],
    });
  });
  afterAll(async () => {
    await server.stop();
    await new Promise((resolve) => cards.close(resolve));
  });

  it("POST /api/a2a/card reads a card through the allow-list and refuses bad ones with the reason", async () => {
    const big = await server.request("/api/a2a/card", { method: "POST", json: { url: `${base}/big` } });
    expect(big.status).toBe(422);
    expect(big.body).toMatchObject({ details: { reason: "a2a_card_invalid" } });
    expect(big.body.message).toMatch(/larger than 256 KB/);
    const notJson = await server.request("/api/a2a/card", {
      method: "POST",
      json: { url: `${base}/notjson` },
    });
    expect(notJson.body).toMatchObject({ details: { reason: "a2a_card_invalid" } });
    const shape = await server.request("/api/a2a/card", { method: "POST", json: { url: `${base}/agent` } });
    expect(shape.body.message).toMatch(/not an A2A Agent Card/);
    const host = await server.request("/api/a2a/card", {
      method: "POST",
      json: { url: "http://agents.example.invalid/a2a/x" },
    });
    expect(host.body).toMatchObject({ details: { reason: "host_not_allowed" } });
    const own = await server.request("/api/a2a/card", {
      method: "POST",
      json: { url: `${server.url}/a2a/support-triage` },
    });
    // This server's own address is not on its allow-list either.
    expect(own.body).toMatchObject({ details: { reason: "host_not_allowed" } });
  });

  it("validation flags a bad card, a host off the list, and an unknown MCP server or tool", async () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "bad-refs",
      name: "Bad refs",
      tools: [
        {
          name: "bad_card",
          desc: "x",
          argsSchema: A2A_QUERY_ARGS,
          impl: { kind: "a2a", url: `${base}/big` },
        },
        {
          name: "far_agent",
          desc: "x",
          argsSchema: A2A_QUERY_ARGS,
          impl: { kind: "a2a", url: "http://agents.example.invalid/a2a/x" },
        },
        { name: "bad_url", desc: "x", argsSchema: A2A_QUERY_ARGS, impl: { kind: "a2a", url: "not a url" } },
        { name: "no_server", desc: "x", impl: { kind: "mcp", server: "nowhere", tool: "echo" } },
        { name: "no_tool", desc: "x", impl: { kind: "mcp", server: "fixture", tool: "no_such_tool" } },
        { name: "echo", desc: "x", impl: { kind: "mcp", server: "fixture", tool: "echo" } },
      ],
    });
    const check = await server.request("/api/agents/server-check", { method: "POST", json: spec });
    const issues = (check.body.issues as { code: string; target: { id: string }; message: string }[]).map(
      (issue) => [issue.target.id, issue.code],
    );
    expect(issues).toEqual([
      ["bad_card", "a2a_card_unavailable"],
      ["far_agent", "host_not_allowed"],
      ["bad_url", "invalid_url"],
      ["no_server", "mcp_server_not_configured"],
      ["no_tool", "mcp_unknown_tool"],
    ]);
  });
});

describe("a2a tools: which remote task a resumed call answers", () => {
  const resumed = (pausePayload?: Record<string, unknown>) =>
    ({ resumeInput: { decision: "approve", ...(pausePayload ? { pausePayload } : {}) } }) as ToolRunContext;

  it("reads it from the call's own pause, contextId optional for pauses saved before it was kept", () => {
    expect(getWaitingTask({} as ToolRunContext, "http://a")).toBeUndefined();
    expect(
      getWaitingTask(resumed({ kind: "a2a_input_required", taskId: "t1", contextId: "c1" }), "http://a"),
    ).toEqual({ taskId: "t1", contextId: "c1" });
    expect(getWaitingTask(resumed({ kind: "a2a_input_required", taskId: "t1" }), "http://a")).toEqual({
      taskId: "t1",
      contextId: "",
    });
  });

  it("refuses to send the answer as a new task when the pause names none", () => {
    for (const payload of [undefined, { kind: "a2a_input_required" }, { kind: "other", taskId: "t1" }])
      expect(() => getWaitingTask(resumed(payload), "http://a")).toThrow(
        expect.objectContaining({ code: "a2a_task_unknown" }),
      );
  });
});
