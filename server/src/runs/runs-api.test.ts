import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AgentSpec, RunEventsResponse, RunRecord, RunsListResponse, type RunEvent } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForEvent, waitForRun } from "../testing/wait-for-run.js";

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const toolsDir = mkdtempSync(path.join(serverDir, ".tmp-run-tools-"));
// A careless user tool that puts a toolContext secret in its result: the recorder must redact it.
writeFileSync(
  path.join(toolsDir, "leaky.ts"),
  `import { z } from "zod";
   export const leaky = { name: "leaky_lookup", desc: "Looks a user up", args: z.object({ text: z.string().default("x") }),
     out: z.object({ user: z.string(), key: z.string() }),
     run: (_args: unknown, context: { toolContext: Record<string, unknown> }) => ({ user: "dana", key: String(context.toolContext.apiKey) }) };`,
);

let api: Server;
let apiUrl: string;
let server: TestServer;
beforeAll(async () => {
  api = createServer((request, response) => {
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ temperature: 21, path: request.url }));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  server = await startTestServer({ toolsDir, httpAllow: ["127.0.0.1"], maxConcurrentRuns: 2 });
});
afterAll(async () => {
  await server.stop();
  await new Promise<void>((resolve) => api.close(() => resolve()));
  rmSync(toolsDir, { recursive: true, force: true });
});

interface ChainTool {
  name: string;
  latencyMs?: number;
  impl?: Record<string, unknown>;
  argsSchema?: Record<string, unknown>;
}
const chainSpec = (id: string, tools: ChainTool[]) =>
  AgentSpec.parse({
    version: 1,
    id,
    name: id,
    tools: tools.map((tool) => ({
      name: tool.name,
      ...(tool.argsSchema ? { argsSchema: tool.argsSchema } : {}),
      impl: tool.impl ?? {
        kind: "mock",
        latencyMs: tool.latencyMs ?? 5,
        output: { ok: true, from: tool.name },
      },
    })),
    hints: { ordering_hints: tools.map((tool) => tool.name) },
  });

async function save(spec: AgentSpec): Promise<void> {
  const response = await server.request("/api/agents", { method: "POST", json: spec });
  expect(response.status).toBe(201);
}

async function start(agentId: string, query = "go", toolContext?: Record<string, unknown>): Promise<string> {
  const response = await server.request("/api/runs", {
    method: "POST",
    json: { agentId, query, ...(toolContext ? { toolContext } : {}) },
  });
  expect(response.status).toBe(202);
  return response.body.runId as string;
}

const events = async (runId: string, after = 0): Promise<RunEvent[]> =>
  (await server.request(`/api/runs/${runId}/events?after=${after}`)).body.events;

describe("runs over REST", () => {
  it("runs an example agent to its answer on the offline model and stores every event in order", async () => {
    const runId = await start("support-triage", "My invoice shows a duplicate charge for March");
    const run = await waitForRun(server, runId);
    expect(run).toMatchObject({
      status: "finished",
      agentId: "support-triage",
      agentVersion: 1,
      offline: true,
    });
    const got = (await server.request(`/api/runs/${runId}`)).body;
    expect(RunRecord.safeParse(got).error).toBeUndefined();
    expect(
      RunEventsResponse.safeParse((await server.request(`/api/runs/${runId}/events`)).body).error,
    ).toBeUndefined();
    expect(RunsListResponse.safeParse((await server.request("/api/runs")).body).error).toBeUndefined();
    expect(got.result).toMatchObject({
      kind: "finish",
      reason: "answer_complete",
      payload: { answer: expect.stringContaining("Duplicate") },
    });
    expect(got.usage.llmCalls).toBeGreaterThan(0);
    expect(got.startedAt <= got.finishedAt).toBe(true);
    const all = await events(runId);
    expect(all.map((event) => event.seq)).toEqual(all.map((_, index) => index + 1));
    expect(all[0]?.type).toBe("run_started");
    expect(all.at(-1)?.type).toBe("run_finished");
    expect(
      all.filter((event) => event.type === "tool_end").map((event) => (event.data as { tool: string }).tool),
    ).toEqual(["triage", "retrieve_docs", "summarize"]);
    expect(await events(runId, 5)).toEqual(all.slice(5));
    const listed = (await server.request("/api/runs?agentId=support-triage")).body.runs;
    expect(listed.map((item: { id: string }) => item.id)).toContain(runId);
    expect((await server.request(`/api/runs/${runId}/cancel`, { method: "POST" })).status).toBe(409);
  });

  it("cancels a running run within its slow tool", async () => {
    await save(chainSpec("slow-agent", [{ name: "slow_step", latencyMs: 60_000 }, { name: "after" }]));
    const runId = await start("slow-agent");
    await waitForEvent(server, runId, (event) => event.type === "tool_start");
    const cancelled = await server.request(`/api/runs/${runId}/cancel`, { method: "POST" });
    expect(cancelled.body).toEqual({ runId, status: "cancelled" });
    const last = (await events(runId)).at(-1);
    expect(last).toMatchObject({ type: "run_finished", data: { reason: "cancelled" } });
  });

  it("queues runs beyond the concurrency limit and cancels a queued one", async () => {
    const first = await start("slow-agent");
    const second = await start("slow-agent");
    const third = await start("slow-agent");
    await waitForRun(server, second, new Set(["running"]));
    expect((await server.store.getRun(third))?.status).toBe("queued");
    expect(server.runs.queuedCount).toBe(1);
    expect((await server.request(`/api/runs/${third}/cancel`, { method: "POST" })).body.status).toBe(
      "cancelled",
    );
    expect(await events(third)).toEqual([]);
    for (const runId of [first, second])
      await server.request(`/api/runs/${runId}/cancel`, { method: "POST" });
    expect(server.runs.activeCount).toBe(0);
  });

  it("pauses for approval and refuses a stale resume token", async () => {
    const runId = await start("email-approval", "Email Dana that the Q3 report is ready");
    const run = await waitForRun(server, runId, new Set(["paused", "failed", "finished"]));
    expect(run.status).toBe("paused");
    expect(run.pause).toMatchObject({ reason: "approval_required", payload: { tool: "send_email" } });
    expect(run.result?.kind).toBe("pause");
    const stale = await server.request(`/api/runs/${runId}/resume`, {
      method: "POST",
      json: { resumeToken: "old", decision: "approve" },
    });
    expect(stale.status).toBe(409);
    expect((await events(runId)).at(-1)?.type).toBe("pause");
    const cancelled = await server.request(`/api/runs/${runId}/cancel`, { method: "POST" });
    expect(cancelled.body.status).toBe("cancelled");
    expect(await server.store.loadPausedState(run.pause!.resumeToken)).toBeUndefined();
  });

  it.each([
    ["approve", {}, "sent"],
    ["edit", { args: { to: "sam@example.com", subject: "Edited", body: "Hello" } }, "sam@example.com"],
    ["reject", {}, undefined],
  ] as const)("resumes a paused run with %s", async (decision, extra, expected) => {
    const runId = await start("email-approval", "Email Dana that the Q3 report is ready");
    const paused = await waitForRun(server, runId, new Set(["paused", "failed", "finished"]));
    const resumed = await server.request(`/api/runs/${runId}/resume`, {
      method: "POST",
      json: { resumeToken: paused.pause!.resumeToken, decision, ...extra },
    });
    expect(resumed.status).toBe(202);
    const again = await server.request(`/api/runs/${runId}/resume`, {
      method: "POST",
      json: { resumeToken: paused.pause!.resumeToken, decision },
    });
    expect(again.status).toBe(409);
    const run = await waitForRun(server, runId);
    expect(run.status).toBe("finished");
    const all = await events(runId);
    expect(all.map((event) => event.seq)).toEqual(all.map((_, index) => index + 1));
    expect(all.find((event) => event.type === "resumed")?.data).toMatchObject({ decision });
    const sent = all.find((event) => event.type === "tool_end" && event.data.tool === "send_email");
    if (expected === undefined) expect(sent).toBeUndefined();
    else expect(JSON.stringify(sent?.data)).toContain(expected);
  });

  it("calls an allow-listed http tool and blocks a host that is not on the list", async () => {
    await save(
      chainSpec("http-agent", [
        {
          name: "weather",
          argsSchema: {
            type: "object",
            properties: { city: { type: "string", default: "paris" } },
            required: ["city"],
          },
          impl: { kind: "http", url: `${apiUrl}/weather/{city}`, query: { units: "metric" } },
        },
        { name: "blocked", impl: { kind: "http", url: apiUrl.replace("127.0.0.1", "localhost") } },
      ]),
    );
    const runId = await start("http-agent", "weather in Paris");
    await waitForRun(server, runId);
    const all = await events(runId);
    const ended = all.find((event) => event.type === "tool_end" && event.data.tool === "weather");
    expect(ended?.data, JSON.stringify(all.map((event) => [event.type, event.data]))).toMatchObject({
      observation: { temperature: 21, path: "/weather/paris?units=metric" },
    });
    const blocked = all.find((event) => event.type === "tool_error" && event.data.tool === "blocked");
    expect(blocked?.data).toMatchObject({ failure: { error_code: "host_not_allowed" } });
  });

  it("runs another saved agent as a subagent, and refuses a cycle", async () => {
    const queryArgs = { type: "object", properties: { query: { type: "string" } }, required: ["query"] };
    await save(
      chainSpec("delegator", [
        { name: "ask_support", argsSchema: queryArgs, impl: { kind: "agent", agentId: "support-triage" } },
      ]),
    );
    await save(
      chainSpec("loop-agent", [
        { name: "ask_myself", argsSchema: queryArgs, impl: { kind: "agent", agentId: "loop-agent" } },
      ]),
    );
    const delegated = await start("delegator", "duplicate charge");
    await waitForRun(server, delegated);
    const ended = (await events(delegated)).find((event) => event.type === "tool_end");
    expect(ended?.data).toMatchObject({
      tool: "ask_support",
      observation: { answer: expect.stringContaining("Duplicate"), reason: "answer_complete" },
    });
    // the subagent's model calls count in the parent run, marked as such
    const subagentCalls = (await events(delegated)).filter(
      (event) => event.type === "llm_call" && event.data.purpose === "subagent",
    );
    expect(subagentCalls.length).toBeGreaterThan(0);
    const record = (await server.request(`/api/runs/${delegated}`)).body as { usage: { llmCalls: number } };
    const ownCalls = (await events(delegated)).filter(
      (event) => event.type === "llm_call" && event.data.purpose !== "subagent",
    ).length;
    expect(record.usage.llmCalls).toBe(ownCalls + subagentCalls.length);
    const looped = await start("loop-agent", "anything");
    await waitForRun(server, looped);
    const failed = (await events(looped)).find((event) => event.type === "tool_error");
    expect(failed?.data).toMatchObject({ failure: { error_code: "agent_cycle" } });
  });

  it("never stores a toolContext secret, even when a tool returns it", async () => {
    await save(chainSpec("leaky-agent", [{ name: "lookup", impl: { kind: "module", ref: "leaky_lookup" } }]));
    const runId = await start("leaky-agent", "who am i", { apiKey: "sk-toolcontext-secret-42" });
    await waitForRun(server, runId);
    const all = await events(runId);
    expect(all.some((event) => event.type === "tool_end")).toBe(true);
    expect(JSON.stringify(all)).not.toContain("sk-toolcontext-secret-42");
    expect(JSON.stringify(await server.request(`/api/runs/${runId}`))).not.toContain(
      "sk-toolcontext-secret-42",
    );
  });
});
