import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnServer, type SpawnedServer } from "../testing/spawn-server.js";
import { createA2aCallerAgent, getRemoteTaskState } from "../testing/a2a-caller-agent.js";
import { startTestCluster, type TestCluster } from "../testing/start-test-cluster.js";

// PostgreSQL, redis-server, an API instance and workers, and a remote Waddle as the A2A agent: run with
// WADDLE_TEST_SCALE_OUT=only (vitest.config.ts).
let remoteDir: string;
let remote: SpawnedServer;
let cluster: TestCluster;

beforeAll(async () => {
  remoteDir = mkdtempSync(path.join(tmpdir(), "waddle-a2a-remote-"));
  remote = await spawnServer({ env: { WADDLE_DATA_DIR: remoteDir } });
  cluster = await startTestCluster({ WADDLE_HTTP_ALLOW: new URL(remote.url).host });
  // One after the other: the first applies the migrations.
  await cluster.start("api");
}, 120_000);
afterAll(async () => {
  await cluster?.destroy();
  await remote?.stop();
  rmSync(remoteDir, { recursive: true, force: true });
}, 60_000);

describe("a remote A2A task waiting for a person, in queue mode", () => {
  it("is answered by another worker after the one that paused on it was killed", async () => {
    const [api] = cluster.instances as [TestCluster["instances"][0]];
    const first = await cluster.start("worker");
    const spec = createA2aCallerAgent("asks-mailer", `${remote.url}/a2a/email-approval`);
    expect((await api.request("/api/agents", { json: spec })).status).toBe(201);
    const started = await api.request("/api/runs", {
      json: { agentId: "asks-mailer", query: "Email Dana the report" },
    });
    expect(started.status).toBe(202);
    const paused = await cluster.waitForRun(
      started.body.runId,
      (run) => run.status !== "queued" && run.status !== "running",
    );
    expect(paused.status).toBe("paused");
    const remoteTaskId = paused.pause!.payload.taskId as string;

    // The worker that paused is gone; a new one takes the answer.
    first.child.kill("SIGKILL");
    await first.exited;
    await cluster.start("worker");
    const resumed = await api.request(`/api/runs/${paused.id}/resume`, {
      json: { resumeToken: paused.pause!.resumeToken, decision: "approve", userInput: "Yes, send it" },
    });
    expect(resumed.status).toBe(202);
    const run = await cluster.waitForRun(
      paused.id,
      (candidate) =>
        ["paused", "finished", "failed", "cancelled", "interrupted"].includes(candidate.status) &&
        (candidate.lastSeq ?? 0) > (paused.lastSeq ?? 0),
    );
    expect(run.status).toBe("finished");
    const ends = (await cluster.getEvents(run.id)).filter((event) => event.type === "tool_end");
    expect(ends.at(-1)?.data).toMatchObject({ observation: { taskId: remoteTaskId, state: "completed" } });
    expect(await getRemoteTaskState(`${remote.url}/a2a/email-approval`, remoteTaskId)).toBe("completed");
  }, 120_000);
});
