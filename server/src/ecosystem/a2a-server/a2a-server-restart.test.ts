import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { TaskState, type Part, type Task } from "@a2a-js/sdk";
import type { RunRecord } from "@waddle/protocol";
import { afterAll, describe, expect, it } from "vitest";
import { spawnServer, type SpawnedServer } from "../../testing/spawn-server.js";
import { send, text, userMessage } from "./a2a-test-messages.js";

const answer = (value: Record<string, unknown>): Part => ({
  content: { $case: "data", value },
  metadata: undefined,
  filename: "",
  mediaType: "application/json",
});

function connect(server: SpawnedServer): Promise<Client> {
  return new ClientFactory().createFromUrl(
    `${server.url}/a2a/email-approval/.well-known/agent-card.json`,
    "",
  );
}

// Each server is a process of its own on one data folder: nothing of the first one's memory is left, and
// the first one is killed (no clean shutdown), so the paused task must have been stored when it paused.
describe("an A2A task waiting for a person, across a restart of the server process", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-a2a-server-restart-"));
  const servers: SpawnedServer[] = [];
  const start = async () => {
    const server = await spawnServer({ env: { WADDLE_DATA_DIR: dataDir } });
    servers.push(server);
    return server;
  };
  afterAll(async () => {
    for (const server of servers) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("tasks/get reads it after the restart, and an approval through A2A completes it", async () => {
    const first = await start();
    const paused = (await (
      await connect(first)
    ).sendMessage(send(userMessage([text("Email Dana the report")])))) as Task;
    expect(paused.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    first.child.kill("SIGKILL");
    await first.exited;

    const second = await start();
    const a2a = await connect(second);
    const read = await a2a.getTask({ tenant: "", id: paused.id });
    expect(read.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(read.contextId).toBe(paused.contextId);
    const pausePart = read.status?.message?.parts.find((part) => part.content?.$case === "data");
    expect(pausePart?.content?.value).toMatchObject({ reason: "approval_required" });

    const answered = (await a2a.sendMessage(
      send(userMessage([answer({ decision: "approve" })], { taskId: paused.id, contextId: read.contextId })),
    )) as Task;
    expect(answered.id).toBe(paused.id);
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answered.artifacts).toHaveLength(1);
    expect((await a2a.getTask({ tenant: "", id: paused.id })).status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    // The same Waddle run went on: the approved call ran, and the run finished.
    const runId = (paused.metadata?.waddle as { runId: string }).runId;
    const run = (await (await fetch(`${second.url}/api/runs/${runId}`)).json()) as RunRecord;
    expect(run.status).toBe("finished");
  }, 90_000);
});
