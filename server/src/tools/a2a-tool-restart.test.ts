import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type RunEvent, type RunRecord } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnServer, type SpawnedServer } from "../testing/spawn-server.js";
import { createA2aCallerAgent, getRemoteTaskState } from "../testing/a2a-caller-agent.js";

async function call(
  server: SpawnedServer,
  route: string,
  json?: unknown,
): Promise<{ status: number; body: any }> /* eslint-disable-line @typescript-eslint/no-explicit-any */ {
  const response = await fetch(`${server.url}${route}`, {
    method: json === undefined ? "GET" : "POST",
    ...(json === undefined
      ? {}
      : { headers: { "content-type": "application/json" }, body: JSON.stringify(json) }),
  });
  return { status: response.status, body: await response.json() };
}

async function waitForStatus(server: SpawnedServer, runId: string, statuses: string[]): Promise<RunRecord> {
  for (;;) {
    const run = (await call(server, `/api/runs/${runId}`)).body as RunRecord;
    if (statuses.includes(run.status)) return run;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// The caller runs in its own process and is restarted while its run waits: nothing of the first process's
// memory is left, so the way back to the remote task must come from what was stored with the pause.
describe("a2a tools: a remote task waiting for a person, across a restart of the caller", () => {
  const dirs = [
    mkdtempSync(path.join(tmpdir(), "waddle-a2a-remote-")),
    mkdtempSync(path.join(tmpdir(), "waddle-a2a-caller-")),
  ];
  const [remoteDir, callerDir] = dirs as [string, string];
  const servers: SpawnedServer[] = [];
  let remote: SpawnedServer;
  const startCaller = async () => {
    const server = await spawnServer({
      env: { WADDLE_DATA_DIR: callerDir, WADDLE_HTTP_ALLOW: new URL(remote.url).host },
    });
    servers.push(server);
    return server;
  };
  beforeAll(async () => {
    remote = await spawnServer({ env: { WADDLE_DATA_DIR: remoteDir } });
    servers.push(remote);
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("the person's answer, given after the restart, reaches the remote task and ends it", async () => {
    const first = await startCaller();
    const spec = createA2aCallerAgent("asks-mailer", `${remote.url}/a2a/email-approval`);
    expect((await call(first, "/api/agents", spec)).status).toBe(201);
    const started = await call(first, "/api/runs", {
      agentId: "asks-mailer",
      query: "Email Dana the report",
    });
    const paused = await waitForStatus(first, started.body.runId, ["paused", "finished", "failed"]);
    expect(paused.status).toBe("paused");
    const remoteTaskId = paused.pause!.payload.taskId as string;
    expect(paused.pause!.payload).toMatchObject({
      kind: "a2a_input_required",
      contextId: expect.any(String),
    });
    await first.stop();

    const second = await startCaller();
    const resumed = await call(second, `/api/runs/${paused.id}/resume`, {
      resumeToken: paused.pause!.resumeToken,
      decision: "approve",
      userInput: "Yes, send it",
    });
    expect(resumed.status).toBe(202);
    const run = await waitForStatus(second, paused.id, ["paused", "finished", "failed", "cancelled"]);
    expect(run.status).toBe("finished");
    const events = (await call(second, `/api/runs/${run.id}/events?after=0`)).body.events as RunEvent[];
    const ends = events.filter((event) => event.type === "tool_end");
    expect(ends.at(-1)?.data).toMatchObject({ observation: { taskId: remoteTaskId, state: "completed" } });
    // The remote agent ran one task, answered once: no second task was started for the same request.
    expect(await getRemoteTaskState(`${remote.url}/a2a/email-approval`, remoteTaskId)).toBe("completed");
  }, 90_000);
});
