import assert from "node:assert/strict";
import { FinalPayload, type RunEvent } from "@waddle/protocol";
import { draftStoreCases } from "./drafts/draft-store-cases.js";
import { credentialStoreCases } from "./credentials/credential-store-cases.js";
import { apiKeyStoreCases } from "./api-keys/api-key-store-cases.js";
import { requestKeyCases } from "./request-keys/request-key-cases.js";
import { a2aTaskCases } from "./a2a-tasks/a2a-task-cases.js";
import { sessionStoreCases } from "./sessions/session-store-cases.js";
import { testStoreCases } from "./tests/test-store-cases.js";
import { callRecordCases } from "./call-records/call-record-cases.js";
import { auditStoreCases } from "./audit/audit-store-cases.js";
import { storeAgentCases } from "./store-agent-cases.js";
import { storeReleaseCases } from "./releases/store-release-cases.js";
import { publicStoreCases } from "./public/public-store-cases.js";
import { storeShadowCases } from "./shadow/store-shadow-cases.js";
import { triggerStoreCases } from "./triggers/trigger-store-cases.js";
import { inboxStoreCases } from "./inbox/inbox-store-cases.js";
import { webhookStoreCases } from "./webhooks/webhook-store-cases.js";
import {
  expectStoreError,
  storeClaimCases,
  withStore,
  type StoreConformanceCase,
} from "./store-claim-cases.js";
import { storeRunOriginCases } from "./store-run-origin-cases.js";

export type { StoreConformanceCase } from "./store-claim-cases.js";

const event = (runId: string, seq: number, type: "step_start" | "run_started" = "step_start"): RunEvent =>
  type === "run_started"
    ? {
        runId,
        seq,
        ts: seq,
        step: 0,
        type,
        data: { query: "q", llm: { provider: "offline", model: "offline", offline: true }, tools: [] },
      }
    : { runId, seq, ts: seq, step: seq, type, data: { source: "llm" } };

/** The shared conformance suite of `WaddleStore`: run each case against every implementation. */
export const storeConformanceCases: readonly StoreConformanceCase[] = [
  ...storeClaimCases,
  ...storeRunOriginCases,
  ...auditStoreCases,
  ...requestKeyCases,
  ...sessionStoreCases,
  ...testStoreCases,
  ...draftStoreCases,
  ...a2aTaskCases,
  ...credentialStoreCases,
  ...apiKeyStoreCases,
  ...callRecordCases,
  ...storeAgentCases,
  ...storeReleaseCases,
  ...publicStoreCases,
  ...storeShadowCases,
  ...triggerStoreCases,
  ...inboxStoreCases,
  ...webhookStoreCases,
  {
    name: "creates, patches and lists runs newest first",
    run: (make) =>
      withStore(make, async (store) => {
        await store.createRun({ id: "run-1", agentId: "a", agentVersion: 1, query: "one", status: "queued" });
        await store.createRun({
          id: "run-2",
          agentId: "b",
          agentVersion: 2,
          query: "two",
          status: "queued",
          offline: true,
        });
        await store.createRun({
          id: "run-3",
          agentId: "a",
          agentVersion: 1,
          query: "three",
          status: "running",
        });
        await expectStoreError(
          store.createRun({ id: "run-1", agentId: "a", agentVersion: 1, query: "x", status: "queued" }),
          "conflict",
        );
        assert.deepEqual(
          (await store.listRuns()).map((run) => run.id),
          ["run-3", "run-2", "run-1"],
        );
        assert.deepEqual(
          (await store.listRuns({ agentId: "a" })).map((run) => run.id),
          ["run-3", "run-1"],
        );
        assert.deepEqual(
          (await store.listRuns({ statuses: ["running"] })).map((run) => run.id),
          ["run-3"],
        );
        assert.deepEqual(
          (await store.listRuns({ limit: 1 })).map((run) => run.id),
          ["run-3"],
        );
        const run = await store.getRun("run-2");
        assert.equal(run?.offline, true);
        assert.equal(run?.lastSeq, 0);
        assert.equal(run?.result, null);
        const patched = await store.updateRun("run-1", {
          status: "paused",
          startedAt: "2026-01-01T00:00:00.000Z",
          pause: { reason: "approval_required", payload: { tool: "x" }, resumeToken: "tok" },
          usage: { promptTokens: 3, completionTokens: 4, reasoningTokens: 0, costUsd: 0.5, llmCalls: 1 },
        });
        assert.equal(patched.status, "paused");
        assert.equal(patched.pause?.resumeToken, "tok");
        assert.equal(patched.usage.costUsd, 0.5);
        const cleared = await store.updateRun("run-1", { pause: null, status: "running" });
        assert.equal(cleared.pause, null);
        assert.equal(cleared.startedAt, "2026-01-01T00:00:00.000Z");
        await expectStoreError(store.updateRun("nope", { status: "failed" }), "not_found");
      }),
  },
  {
    name: "keeps a run's toolContext keys (never values) until a patch replaces or clears them",
    run: (make) =>
      withStore(make, async (store) => {
        await store.createRun({
          id: "run-k",
          agentId: "a",
          agentVersion: 1,
          query: "q",
          status: "queued",
          toolContextKeys: ["apiKey", "userId"],
        });
        await store.createRun({ id: "run-n", agentId: "a", agentVersion: 1, query: "q", status: "queued" });
        assert.deepEqual((await store.getRun("run-k"))?.toolContextKeys, ["apiKey", "userId"]);
        assert.equal((await store.getRun("run-n"))?.toolContextKeys, undefined);
        assert.equal("toolContextKeys" in (await store.getRun("run-n"))!, false);
        await store.updateRun("run-k", { status: "paused" });
        assert.deepEqual((await store.getRun("run-k"))?.toolContextKeys, ["apiKey", "userId"]);
        await store.updateRun("run-k", { toolContextKeys: ["session"] });
        assert.deepEqual((await store.listRuns({ agentId: "a" }))[1]?.toolContextKeys, ["session"]);
        await store.updateRun("run-k", { toolContextKeys: null });
        assert.equal("toolContextKeys" in (await store.getRun("run-k"))!, false);
      }),
  },
  {
    name: "appends events in seq order without gaps and lists them after a seq",
    run: (make) =>
      withStore(make, async (store) => {
        await store.createRun({ id: "run-e", agentId: "a", agentVersion: 1, query: "q", status: "running" });
        await store.appendEvent(event("run-e", 1, "run_started"));
        for (let seq = 2; seq <= 10; seq += 1) await store.appendEvent(event("run-e", seq));
        await expectStoreError(store.appendEvent(event("run-e", 12)), "seq_gap");
        await expectStoreError(store.appendEvent(event("run-e", 10)), "seq_gap");
        await expectStoreError(store.appendEvent(event("missing", 1)), "not_found");
        assert.deepEqual(
          (await store.listEvents("run-e")).map((e) => e.seq),
          [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        );
        assert.deepEqual(
          (await store.listEvents("run-e", { afterSeq: 7 })).map((e) => e.seq),
          [8, 9, 10],
        );
        assert.deepEqual(
          (await store.listEvents("run-e", { afterSeq: 2, limit: 3 })).map((e) => e.seq),
          [3, 4, 5],
        );
        assert.deepEqual(await store.listEvents("run-e", { afterSeq: 10 }), []);
        assert.deepEqual(await store.listEvents("unknown"), []);
        assert.deepEqual((await store.listEvents("run-e"))[0], event("run-e", 1, "run_started"));
        assert.equal((await store.getRun("run-e"))?.lastSeq, 10);
      }),
  },
  {
    name: "writes an event with its run patch and task, and nothing of a refused one",
    run: (make) =>
      withStore(make, async (store) => {
        await store.createRun({ id: "run-t", agentId: "a", agentVersion: 1, query: "q", status: "running" });
        const task = {
          runId: "run-t",
          taskId: "t1",
          name: "job",
          status: "running" as const,
          updatedAt: "now",
        };
        await store.appendEvent(event("run-t", 1), { run: { status: "paused" }, task });
        assert.equal((await store.getRun("run-t"))?.status, "paused");
        assert.deepEqual(await store.listTasks("run-t"), [task]);
        await store.appendEvent(event("run-t", 2), {
          task: { ...task, status: "completed", result: { n: 1 } },
        });
        assert.deepEqual(
          (await store.listTasks("run-t")).map((t) => [t.status, t.result]),
          [["completed", { n: 1 }]],
        );
        await expectStoreError(
          store.appendEvent(event("run-t", 5), { run: { status: "finished" } }),
          "seq_gap",
        );
        assert.equal((await store.getRun("run-t"))?.status, "paused");
        assert.deepEqual(await store.listTasks("other"), []);
      }),
  },
  {
    name: "appends a batch in one piece: a gap anywhere in it writes nothing",
    run: (make) =>
      withStore(make, async (store) => {
        await store.createRun({ id: "run-b", agentId: "a", agentVersion: 1, query: "q", status: "running" });
        await store.createRun({ id: "run-c", agentId: "a", agentVersion: 1, query: "q", status: "running" });
        await store.appendEvents([
          { event: event("run-b", 1) },
          { event: event("run-c", 1) },
          { event: event("run-b", 2), options: { run: { status: "paused" } } },
        ]);
        assert.deepEqual(
          (await store.listEvents("run-b")).map((e) => e.seq),
          [1, 2],
        );
        assert.equal((await store.getRun("run-b"))?.status, "paused");
        await expectStoreError(
          store.appendEvents([
            { event: event("run-b", 3), options: { run: { status: "finished" } } },
            { event: event("run-b", 5) },
          ]),
          "seq_gap",
        );
        assert.deepEqual(
          (await store.listEvents("run-b")).map((e) => e.seq),
          [1, 2],
        );
        assert.equal((await store.getRun("run-b"))?.status, "paused");
        assert.equal((await store.getRun("run-b"))?.lastSeq, 2);
        await store.appendEvents([]);
      }),
  },
  {
    name: "summarizes a run's steps and duration from its result, on get, list and update alike",
    run: (make) =>
      withStore(make, async (store) => {
        const usage = { promptTokens: 1, completionTokens: 2, reasoningTokens: 0, costUsd: 0, llmCalls: 1 };
        const metadata = { steps: 4, llmCalls: 1, autoSeqSavedCalls: 2, usage, durationMs: 1_250 };
        await store.createRun({ id: "run-s", agentId: "a", agentVersion: 1, query: "q", status: "queued" });
        const fresh = await store.getRun("run-s");
        assert.equal(fresh?.steps, undefined);
        assert.equal(fresh?.durationMs, undefined);
        const paused = await store.updateRun("run-s", {
          status: "paused",
          startedAt: "2026-01-01T00:00:00.000Z",
          result: { kind: "pause", reason: "approval_required", payload: {}, resumeToken: "t", metadata },
        });
        assert.deepEqual([paused.steps, paused.durationMs], [4, 1_250]);
        await store.updateRun("run-s", {
          status: "finished",
          finishedAt: "2026-01-01T00:01:00.000Z",
          result: {
            kind: "finish",
            reason: "answer_complete",
            payload: FinalPayload.parse({ answer: "done" }),
            metadata: { ...metadata, steps: 6, durationMs: 2_000 },
          },
        });
        const [listed] = await store.listRuns({ agentId: "a" });
        assert.deepEqual([listed?.steps, listed?.durationMs], [6, 2_000]);
        // Ended without a finish of its own: the pause's metadata is stale, the wall clock is not.
        await store.updateRun("run-s", {
          status: "failed",
          result: { kind: "pause", reason: "approval_required", payload: {}, resumeToken: "t", metadata },
        });
        const failed = await store.getRun("run-s");
        assert.equal(failed?.steps, undefined);
        assert.equal(failed?.durationMs, 60_000);
      }),
  },
  {
    name: "saves, loads and deletes paused states",
    run: (make) =>
      withStore(make, async (store) => {
        const state = { step: 3, nested: { list: [1, "two", null], flag: true } };
        await store.savePausedState({ token: "tok-1", runId: "run-p", state });
        assert.deepEqual(await store.loadPausedState("tok-1"), state);
        await store.savePausedState({ token: "tok-1", state: { step: 4 } });
        assert.deepEqual(await store.loadPausedState("tok-1"), { step: 4 });
        await store.deletePausedState("tok-1");
        assert.equal(await store.loadPausedState("tok-1"), undefined);
        await store.deletePausedState("never-saved");
      }),
  },
];
