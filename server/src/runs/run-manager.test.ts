import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { AgentSpec, type RunEvent, type RunRecord } from "@waddle/protocol";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Logger } from "../shared/logger.js";
import { MemoryStore } from "../store/memory-store.js";
import type { EventEntry } from "../store/waddle-store.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";
import { SecretRedactor } from "../secrets/secret-redactor.js";
import { RunEventHub } from "./run-event-hub.js";
import { RunManager } from "./run-manager.js";

/** A MemoryStore whose reads of runs and writes of events fail as often as a test asks. */
class FailingStore extends MemoryStore {
  failGetRun = 0;
  failAppends = false;

  override async getRun(id: string): Promise<RunRecord | undefined> {
    if (this.failGetRun > 0) {
      this.failGetRun -= 1;
      throw new Error("SQLITE_IOERR: disk I/O error");
    }
    return super.getRun(id);
  }

  override async appendEvents(entries: readonly EventEntry[]): Promise<void> {
    if (this.failAppends) throw new Error("SQLITE_FULL: database or disk is full");
    return super.appendEvents(entries);
  }
}

function createRecordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (message: string, fields?: Record<string, unknown>) =>
    void lines.push(`${message} ${JSON.stringify(fields ?? {})}`);
  return { lines, debug: log, info: log, warn: log, error: log };
}

const spec = AgentSpec.parse({
  version: 1,
  id: "plain",
  name: "Plain",
  tools: [{ name: "echo", desc: "Echoes", impl: { kind: "mock", output: { ok: true } } }],
});

describe("RunManager with a store that throws", () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on("unhandledRejection", onUnhandled);
  });
  afterEach(() => void process.off("unhandledRejection", onUnhandled));

  async function setUp() {
    const store = new FailingStore();
    await store.createAgent({ spec });
    const hub = new RunEventHub();
    const logger = createRecordingLogger();
    const manager = new RunManager({
      store,
      hub,
      logger,
      redactor: new SecretRedactor([]),
      maxConcurrentRuns: 1,
      createPlanner: async () => {
        throw new Error("the planner is never reached in these tests");
      },
    });
    return { store, hub, logger, manager };
  }

  it("marks the run failed with a run_failed event when reading the run throws once", async () => {
    const { store, hub, logger, manager } = await setUp();
    store.failGetRun = 1;
    const { runId } = await manager.startRun({ agentId: "plain", query: "go" });
    const run = await waitForRun({ hub, store }, runId);
    expect(run.status).toBe("failed");
    expect(run.error).toMatchObject({ code: "internal", message: expect.stringContaining("SQLITE_IOERR") });
    const events: RunEvent[] = await store.listEvents(runId);
    expect(events.map((event) => event.type)).toEqual(["run_failed"]);
    expect(logger.lines.some((line) => line.startsWith("run crashed outside the planner"))).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
    expect(manager.activeCount).toBe(0);
  });

  it("marks the row failed when no event can be stored, and rejects nothing when even that fails", async () => {
    const { store, hub, logger, manager } = await setUp();
    store.failGetRun = 1;
    store.failAppends = true;
    const first = await manager.startRun({ agentId: "plain", query: "go" });
    const failed = await waitForRun({ hub, store }, first.runId);
    expect(failed).toMatchObject({ status: "failed", lastSeq: 0 });

    store.failGetRun = 1_000;
    const second = await manager.startRun({ agentId: "plain", query: "again" });
    for (let turn = 0; turn < 20 && manager.activeCount > 0; turn += 1) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(manager.activeCount).toBe(0);
    expect(logger.lines.filter((line) => line.startsWith("run could not be marked failed"))).toHaveLength(1);
    expect(unhandled).toEqual([]);
    store.failGetRun = 0;
    expect((await store.getRun(second.runId))?.status).toBe("queued");
  });
});

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
describe("RunManager.close while a run pauses", () => {
  it("leaves a run paused and resumable when its pause is recorded but its state is still being saved", async () => {
    const store = new MemoryStore();
    await store.createAgent({ spec });
    const hub = new RunEventHub();
    let savedState: (() => void) | undefined;
    let aborted = false;
    const manager = new RunManager({
      store,
      hub,
      logger: createRecordingLogger(),
      redactor: new SecretRedactor([]),
      maxConcurrentRuns: 1,
      // Emits `pause` as ReactPlanner does, then saves its state slowly (until the test lets it finish).
      createPlanner: async () => ({
        offline: true,
        planner: {
          async run(_query, options) {
            options.signal?.addEventListener("abort", () => (aborted = true));
            const pause = {
              reason: "approval_required" as const,
              payload: { tool: "echo" },
              resumeToken: "tok-1",
            };
            options.onEvent?.({ runId: "", seq: 0, ts: Date.now(), step: 0, type: "pause", data: pause });
            await new Promise<void>((resolve) => (savedState = resolve));
            return { kind: "pause", ...pause, metadata: { steps: 0, llmCalls: 0 } } as never;
          },
          resume: () => Promise.reject(new Error("not resumed here")),
        },
      }),
    });
    const { runId } = await manager.startRun({ agentId: "plain", query: "go" });
    await new Promise<void>((resolve) => {
      const stop = hub.onStatus((message) => {
        if (message.runId === runId && message.status === "paused") resolve(stop());
      });
    });
    const closed = manager.close(5_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    savedState?.();
    await closed;
    const run = await store.getRun(runId);
    expect(run?.status).toBe("paused");
    expect(run?.pause?.resumeToken).toBe("tok-1");
    expect(aborted).toBe(false);
    const types = (await store.listEvents(runId)).map((event) => event.type);
    expect(types).toContain("pause");
    expect(types).not.toContain("run_interrupted");
  });
});

const toolsDir = mkdtempSync(path.join(serverDir, ".tmp-context-tools-"));
// A tool that needs the caller's key from toolContext, and says whether it got it.
writeFileSync(
  path.join(toolsDir, "use-key.ts"),
  `import { z } from "zod";
   export const useKey = { name: "use_key", desc: "Calls an API with the caller's key", args: z.object({}),
     out: z.object({ hasKey: z.boolean() }),
     run: (_args: unknown, context: { toolContext: Record<string, unknown> }) =>
       ({ hasKey: context.toolContext.apiKey === "sk-caller-key-0042" }) };`,
);
afterAll(() => rmSync(toolsDir, { recursive: true, force: true }));

describe("toolContext across a restart", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-context-restart-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const keyed = AgentSpec.parse({
    version: 1,
    id: "keyed",
    name: "Keyed",
    tools: [
      {
        name: "use_key",
        desc: "Calls an API with the caller's key",
        requiresApproval: true,
        impl: { kind: "module", ref: "use_key" },
      },
    ],
  });
  const resume = (server: TestServer, run: RecordOfPause, toolContext?: Record<string, unknown>) =>
    server.request(`/api/runs/${run.id}/resume`, {
      method: "POST",
      json: {
        resumeToken: run.pause.resumeToken,
        decision: "approve",
        ...(toolContext ? { toolContext } : {}),
      },
    });
  type RecordOfPause = RunRecord & { pause: NonNullable<RunRecord["pause"]> };

  it("records the keys only, refuses a resume without it after a restart (409), and runs with it again", async () => {
    const first = await startTestServer({ dataDir, toolsDir });
    expect((await first.request("/api/agents", { method: "POST", json: keyed })).status).toBe(201);
    const started = await first.request("/api/runs", {
      method: "POST",
      json: { agentId: "keyed", query: "use my key", toolContext: { apiKey: "sk-caller-key-0042" } },
    });
    const paused = (await waitForRun(first, started.body.runId, new Set(["paused"]))) as RecordOfPause;
    expect(paused.toolContextKeys).toEqual(["apiKey"]);
    await first.close();
    for (const file of readdirSync(dataDir)) {
      expect(readFileSync(path.join(dataDir, file)).includes("sk-caller-key-0042"), file).toBe(false);
    }

    const second = await startTestServer({ dataDir, toolsDir });
    try {
      const refused = await resume(second, paused);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        code: "conflict",
        message: expect.stringMatching(
          /toolContext \(keys: apiKey\).*Resume again with the same toolContext/,
        ),
        details: { toolContextRequired: true, toolContextKeys: ["apiKey"] },
      });
      expect((await second.store.getRun(paused.id))?.status).toBe("paused");
      const accepted = await resume(second, paused, { apiKey: "sk-caller-key-0042" });
      expect(accepted.status).toBe(202);
      const finished = await waitForRun(second, paused.id);
      expect(finished.status).toBe("finished");
      const events = await second.store.listEvents(paused.id);
      const toolEnd = events.find((event) => event.type === "tool_end");
      expect(toolEnd?.data).toMatchObject({ tool: "use_key" });
      expect(JSON.stringify(toolEnd?.data)).toContain('"hasKey":true');
      expect(JSON.stringify(events)).not.toContain("sk-caller-key-0042");
    } finally {
      await second.close();
    }
  }, 30_000);
});
