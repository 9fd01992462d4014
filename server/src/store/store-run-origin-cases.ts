import assert from "node:assert/strict";
import { withStore, type StoreConformanceCase } from "./store-claim-cases.js";

/**
 * What a run carries besides its query: its origin, its offline choice, the decisions at its pauses (part of
 * the store suite).
 */
export const storeRunOriginCases: readonly StoreConformanceCase[] = [
  {
    name: "keeps a run's origin and offline choice, and lists runs by purpose",
    run: (make) =>
      withStore(make, async (store) => {
        const base = { agentId: "a", agentVersion: 1, query: "q", status: "queued" as const };
        await store.createRun({
          ...base,
          id: "run-turn",
          offline: true,
          offlineChosen: true,
          origin: { sessionId: "s1", turn: 2 },
        });
        await store.createRun({
          ...base,
          id: "run-case",
          origin: { purpose: "test", testRunId: "tr", caseId: "c" },
        });
        await store.createRun({ ...base, id: "run-plain" });
        const turn = await store.getRun("run-turn");
        assert.equal(turn?.sessionId, "s1");
        assert.equal(turn?.turn, 2);
        assert.equal(turn?.offline, true);
        assert.equal(turn?.offlineChosen, true);
        const plain = await store.getRun("run-plain");
        assert.equal(plain?.offline, false);
        assert.equal("offlineChosen" in plain!, false);
        assert.equal("sessionId" in plain!, false);
        const ids = async (purpose: "run" | "test") =>
          (await store.listRuns({ purpose })).map((run) => run.id);
        assert.deepEqual(await ids("test"), ["run-case"]);
        assert.deepEqual(await ids("run"), ["run-plain", "run-turn"]);
        assert.equal((await store.getRun("run-case"))?.caseId, "c");
      }),
  },
  {
    name: "lists runs by the channel they were resolved from, and keeps a session's channel",
    run: (make) =>
      withStore(make, async (store) => {
        const base = { agentId: "a", agentVersion: 1, query: "q", status: "queued" as const };
        await store.createRun({ ...base, id: "run-production", origin: { channel: "production" } });
        await store.createRun({ ...base, id: "run-staging", origin: { channel: "staging" } });
        await store.createRun({ ...base, id: "run-latest" });
        await store.createRun({
          ...base,
          id: "run-turn",
          origin: { sessionId: "ses_p", turn: 1, kind: "run", channel: "production" },
        });
        const ids = async (channel: string) => (await store.listRuns({ channel })).map((run) => run.id);
        assert.deepEqual(await ids("production"), ["run-turn", "run-production"]);
        assert.deepEqual(await ids("staging"), ["run-staging"]);
        assert.deepEqual(await ids("canary"), []);
        assert.equal((await store.listRuns()).length, 4);
        assert.equal((await store.getRun("run-turn"))?.channel, "production");
        const pinned = await store.sessions.create({
          id: "ses_p",
          agentId: "a",
          agentVersion: 1,
          channel: "production",
        });
        assert.equal(pinned.channel, "production");
        assert.equal((await store.sessions.get("ses_p"))?.channel, "production");
        const plain = await store.sessions.create({ id: "ses_q", agentId: "a", agentVersion: 1 });
        assert.equal("channel" in plain, false);
        assert.equal("channel" in (await store.sessions.get("ses_q"))!, false);
      }),
  },
  {
    name: "keeps the decisions made at a run's pauses, and none for a run without",
    run: (make) =>
      withStore(make, async (store) => {
        const base = { agentId: "a", agentVersion: 1, query: "q", status: "queued" as const };
        await store.createRun({ ...base, id: "run-decided" });
        await store.createRun({ ...base, id: "run-undecided" });
        assert.equal("decisions" in (await store.getRun("run-decided"))!, false);
        await store.updateRun("run-decided", { decisions: { approve: 1, edit: 0, reject: 0 } });
        await store.updateRun("run-decided", { decisions: { approve: 1, edit: 1, reject: 2 } });
        assert.deepEqual((await store.getRun("run-decided"))?.decisions, { approve: 1, edit: 1, reject: 2 });
        const listed = await store.listRuns({ agentId: "a" });
        assert.deepEqual(listed.find((run) => run.id === "run-decided")?.decisions, {
          approve: 1,
          edit: 1,
          reject: 2,
        });
        assert.equal("decisions" in listed.find((run) => run.id === "run-undecided")!, false);
      }),
  },
];
