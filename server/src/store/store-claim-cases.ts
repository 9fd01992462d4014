import assert from "node:assert/strict";
import type { RunEvent } from "@waddle/protocol";
import { isStoreError, type WaddleStore } from "./waddle-store.js";

/** One behaviour every `WaddleStore` must have; `makeStore` gives a fresh, empty store. */
export interface StoreConformanceCase {
  name: string;
  run(makeStore: () => Promise<WaddleStore> | WaddleStore): Promise<void>;
}

const step = (runId: string, seq: number): RunEvent => ({
  runId,
  seq,
  ts: seq,
  step: seq,
  type: "step_start",
  data: { source: "llm" },
});

/** Resolves once `promise` rejects with a `StoreError` of `code`. */
export async function expectStoreError(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => isStoreError(error) && error.code === code);
}

async function expectFenced(promise: Promise<unknown>): Promise<void> {
  await assert.rejects(promise, (error: unknown) => isStoreError(error) && error.code === "fenced");
}

/** Runs `body` on a fresh store and closes it after. */
export async function withStore(
  makeStore: () => Promise<WaddleStore> | WaddleStore,
  body: (store: WaddleStore) => Promise<void>,
) {
  const store = await makeStore();
  try {
    await body(store);
  } finally {
    await store.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Queue mode's claims, fencing, checkpoints, resume and cancel requests (part of the store suite). */
export const storeClaimCases: readonly StoreConformanceCase[] = [
  {
    name: "claims a run once: a live claim blocks others, an expired or released one does not",
    run: (make) =>
      withStore(make, async (store) => {
        await store.createRun({
          id: "run-c",
          agentId: "a",
          agentVersion: 1,
          query: "q",
          status: "queued",
          work: { contextMeta: { from: "chat" } },
          leaseMs: 60_000,
        });
        // The queued run's own lease keeps the sweeper off, never a worker.
        assert.deepEqual(await store.listUnclaimedRuns(), []);
        const both = await Promise.all([
          store.claimRun({ runId: "run-c", owner: "w1", leaseMs: 60_000, statuses: ["queued"] }),
          store.claimRun({ runId: "run-c", owner: "w2", leaseMs: 60_000, statuses: ["queued"] }),
        ]);
        const won = both.filter((claim) => claim !== undefined);
        assert.equal(won.length, 1);
        const first = won[0]!;
        assert.equal(first.epoch, 1);
        assert.equal(first.status, "queued");
        assert.deepEqual(first.work, { contextMeta: { from: "chat" } });
        assert.equal(first.cancelRequested, false);
        assert.equal(
          await store.claimRun({ runId: "run-c", owner: "w3", leaseMs: 10, statuses: ["queued"] }),
          undefined,
        );
        assert.equal(
          await store.claimRun({ runId: "nope", owner: "w3", leaseMs: 10, statuses: ["queued"] }),
          undefined,
        );
        await store.updateRun("run-c", { status: "running", work: null }, { fence: first.epoch });
        assert.deepEqual(await store.renewClaim(first, 30), { held: true, cancelRequested: false });
        await sleep(60);
        // Expired: the sweeper sees it, and another worker takes it over with the next epoch.
        assert.deepEqual(await store.listUnclaimedRuns(), [{ runId: "run-c", epoch: 1, status: "running" }]);
        const second = await store.claimRun({
          runId: "run-c",
          owner: "w2",
          leaseMs: 60_000,
          statuses: ["queued", "running"],
        });
        assert.equal(second?.epoch, 2);
        assert.equal(second?.status, "running");
        assert.equal(second?.work, undefined);
        assert.deepEqual(await store.renewClaim(first, 60_000), { held: false, cancelRequested: false });
        await store.releaseClaim(first);
        assert.equal(
          await store.claimRun({ runId: "run-c", owner: "w3", leaseMs: 10, statuses: ["running"] }),
          undefined,
        );
        await store.releaseClaim(second!);
        assert.equal(
          (await store.claimRun({ runId: "run-c", owner: "w3", leaseMs: 10, statuses: ["running"] }))?.epoch,
          3,
        );
      }),
  },
  {
    name: "refuses every write under a claim that was taken over, and writes nothing of it",
    run: (make) =>
      withStore(make, async (store) => {
        await store.createRun({ id: "run-f", agentId: "a", agentVersion: 1, query: "q", status: "queued" });
        const old = (await store.claimRun({
          runId: "run-f",
          owner: "w1",
          leaseMs: 1,
          statuses: ["queued"],
        }))!;
        await store.appendEvents([{ event: step("run-f", 1) }], {
          fence: { runId: "run-f", epoch: old.epoch },
          checkpoint: { runId: "run-f", seq: 1, state: { at: 1 } },
        });
        await sleep(10);
        const current = (await store.claimRun({
          runId: "run-f",
          owner: "w2",
          leaseMs: 60_000,
          statuses: ["queued"],
        }))!;
        const fence = { runId: "run-f", epoch: old.epoch };
        await expectFenced(
          store.appendEvents([{ event: step("run-f", 2), options: { run: { status: "finished" } } }], {
            fence,
            checkpoint: { runId: "run-f", seq: 2, state: { at: 2 } },
          }),
        );
        await expectFenced(store.appendEvents([], { fence }));
        await expectFenced(store.updateRun("run-f", { status: "failed" }, { fence: old.epoch }));
        await expectFenced(
          store.savePausedState({ token: "t-old", runId: "run-f", state: { a: 1 }, fence: old.epoch }),
        );
        const run = await store.getRun("run-f");
        assert.equal(run?.lastSeq, 1);
        assert.equal(run?.status, "queued");
        assert.deepEqual(await store.loadCheckpoint("run-f"), { runId: "run-f", seq: 1, state: { at: 1 } });
        assert.equal(await store.loadPausedState("t-old"), undefined);
        await store.appendEvents([{ event: step("run-f", 2) }], {
          fence: { runId: "run-f", epoch: current.epoch },
          checkpoint: { runId: "run-f", seq: 2, state: { at: 2 } },
        });
        await store.savePausedState({
          token: "t-new",
          runId: "run-f",
          state: { b: 2 },
          fence: current.epoch,
        });
        assert.deepEqual(await store.loadPausedState("t-new"), { b: 2 });
        assert.equal((await store.loadCheckpoint("run-f"))?.seq, 2);
        assert.equal(await store.loadCheckpoint("other"), undefined);
      }),
  },
  {
    name: "accepts one answer to a pause, never while a claim holds the run, and carries cancel requests",
    run: (make) =>
      withStore(make, async (store) => {
        await store.createRun({ id: "run-r", agentId: "a", agentVersion: 1, query: "q", status: "queued" });
        const claim = (await store.claimRun({
          runId: "run-r",
          owner: "w1",
          leaseMs: 60_000,
          statuses: ["queued"],
        }))!;
        const pause = { reason: "approval_required" as const, payload: {}, resumeToken: "tok" };
        await store.updateRun("run-r", { status: "paused", pause }, { fence: claim.epoch });
        const resume = { resumeToken: "tok", decision: "approve" as const };
        const queue = (token: string) =>
          store.queueResume({ runId: "run-r", resumeToken: token, work: { resume }, leaseMs: 60_000 });
        assert.equal(await queue("tok"), undefined, "the worker's claim still holds the run");
        await store.releaseClaim(claim);
        assert.equal(await queue("other-token"), undefined);
        const answers = await Promise.all([queue("tok"), queue("tok")]);
        assert.equal(answers.filter((run) => run !== undefined).length, 1);
        const queued = answers.find((answer) => answer !== undefined)!;
        assert.equal(queued.run.status, "queued");
        assert.equal(queued.run.pause?.resumeToken, "tok");
        assert.equal(queued.epoch, claim.epoch);
        const next = await store.claimRun({
          runId: "run-r",
          owner: "w2",
          leaseMs: 60_000,
          statuses: ["queued"],
        });
        assert.deepEqual(next?.work, { resume });
        assert.equal(next?.cancelRequested, false);
        await store.requestCancel("run-r");
        assert.deepEqual(await store.renewClaim(next!, 60_000), { held: true, cancelRequested: true });
        await store.requestCancel("unknown");
      }),
  },
];
