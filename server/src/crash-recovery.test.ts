import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentSpec, type RunEvent, type RunRecord } from "@waddle/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { spawnServer, type SpawnedServer } from "./testing/spawn-server.js";

const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-crash-"));
const env = { WADDLE_DATA_DIR: dataDir };
const started: SpawnedServer[] = [];
afterAll(async () => {
  for (const server of started)
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(server: SpawnedServer, pathname: string, init: { method?: string; json?: unknown } = {}) {
  const response = await fetch(`${server.url}${pathname}`, {
    method: init.method ?? "GET",
    ...(init.json === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(init.json) }),
  });
  return { status: response.status, body: (await response.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const getRun = (server: SpawnedServer, runId: string) =>
  call(server, `/api/runs/${runId}`).then((r) => r.body as RunRecord);
const getEvents = (server: SpawnedServer, runId: string) =>
  call(server, `/api/runs/${runId}/events?after=0`).then((r) => r.body.events as RunEvent[]);

async function start(): Promise<SpawnedServer> {
  const server = await spawnServer({ env });
  started.push(server);
  return server;
}

describe("a server process killed mid-run", () => {
  it("keeps stored events, marks the run interrupted on restart, and keeps a paused run resumable", async () => {
    const first = await start();
    const slow = AgentSpec.parse({
      version: 1,
      id: "crash-agent",
      name: "Crash agent",
      tools: [
        { name: "quick", impl: { kind: "mock", latencyMs: 5, output: { ok: 1 } } },
        { name: "very_slow", impl: { kind: "mock", latencyMs: 600_000, output: { ok: 2 } } },
      ],
      hints: { ordering_hints: ["quick", "very_slow"] },
    });
    expect((await call(first, "/api/agents", { method: "POST", json: slow })).status).toBe(201);
    const running = (
      await call(first, "/api/runs", { method: "POST", json: { agentId: "crash-agent", query: "go" } })
    ).body.runId;
    const paused = (
      await call(first, "/api/runs", {
        method: "POST",
        json: { agentId: "email-approval", query: "Email Dana that the Q3 report is ready" },
      })
    ).body.runId;
    await poll(
      () => getEvents(first, running),
      (events) => events.some((event) => event.type === "tool_start" && event.data.tool === "very_slow"),
    );
    const pausedRun = await poll(
      () => getRun(first, paused),
      (run) => run.status === "paused" || run.status === "failed",
    );
    expect(pausedRun.status).toBe("paused");
    const before = await getEvents(first, running);
    const pausedBefore = await getEvents(first, paused);

    first.child.kill("SIGKILL");
    expect(await first.exited).toBe("SIGKILL");

    const second = await start();
    const interrupted = await getRun(second, running);
    expect(interrupted.status).toBe("interrupted");
    const after = await getEvents(second, running);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.map((event) => event.seq)).toEqual(after.map((_, index) => index + 1));
    expect(after.at(-1)).toMatchObject({ type: "run_interrupted", seq: after.length });
    expect(after.filter((event) => event.type === "run_interrupted")).toHaveLength(1);

    const stillPaused = await getRun(second, paused);
    expect(stillPaused.status).toBe("paused");
    expect(await getEvents(second, paused)).toEqual(pausedBefore);
    const resumed = await call(second, `/api/runs/${paused}/resume`, {
      method: "POST",
      json: { resumeToken: stillPaused.pause!.resumeToken, decision: "approve" },
    });
    expect(resumed.status).toBe(202);
    const finished = await poll(
      () => getRun(second, paused),
      (run) => run.status !== "queued" && run.status !== "running" && run.status !== "paused",
    );
    expect(finished.status, JSON.stringify(finished.error)).toBe("finished");
    const resumedEvents = await getEvents(second, paused);
    expect(resumedEvents.map((event) => event.seq)).toEqual(resumedEvents.map((_, index) => index + 1));
    expect(resumedEvents.some((event) => event.type === "resumed")).toBe(true);

    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 90_000);

  it("marks running runs interrupted on SIGTERM and closes cleanly", async () => {
    const server = await start();
    const runId = (
      await call(server, "/api/runs", { method: "POST", json: { agentId: "crash-agent", query: "again" } })
    ).body.runId;
    await poll(
      () => getEvents(server, runId),
      (events) => events.some((event) => event.type === "tool_start" && event.data.tool === "very_slow"),
    );
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain("SIGTERM: stopping Waddle");
    const again = await start();
    const run = await getRun(again, runId);
    expect(run.status).toBe("interrupted");
    const events = await getEvents(again, runId);
    expect(events.filter((event) => event.type === "run_interrupted")).toHaveLength(1);
    expect(events.at(-1)?.type).toBe("run_interrupted");
    again.child.kill("SIGTERM");
    await again.exited;
  }, 90_000);
});
