import assert from "node:assert/strict";
import { AgentSpec } from "@waddle/protocol";
import { expectStoreError, withStore, type StoreConformanceCase } from "./store-claim-cases.js";

const spec = (id: string, name = `Agent ${id}`) =>
  AgentSpec.parse({
    version: 1,
    id,
    name,
    tools: [{ name: "echo", impl: { kind: "mock", output: { ok: true } } }],
  });

/** Agents and their versions (part of the store suite). */
export const storeAgentCases: readonly StoreConformanceCase[] = [
  {
    name: "keeps the invalid mark of a version saved with errors, and only of that version",
    run: (make) =>
      withStore(make, async (store) => {
        const first = await store.createAgent({ spec: spec("gamma"), invalid: true });
        assert.equal(first.invalid, true);
        assert.equal((await store.getAgent("gamma"))?.invalid, true);
        const second = await store.updateAgent({ id: "gamma", spec: spec("gamma"), baseVersion: 1 });
        assert.equal(second.invalid, undefined);
        assert.equal((await store.getAgent("gamma"))?.invalid, undefined);
        assert.equal((await store.getAgentVersion("gamma", 1))?.invalid, true);
        const versions = await store.listAgentVersions("gamma");
        assert.deepEqual(
          versions?.map((version) => [version.version, version.invalid]),
          [
            [1, true],
            [2, undefined],
          ],
        );
      }),
  },
  {
    name: "creates an agent at version 1 and lists it",
    run: (make) =>
      withStore(make, async (store) => {
        const created = await store.createAgent({ spec: spec("alpha") });
        assert.equal(created.version, 1);
        assert.deepEqual((await store.getAgent("alpha"))?.spec, spec("alpha"));
        const list = await store.listAgents();
        assert.deepEqual(
          list.map((agent) => [agent.id, agent.name, agent.version, agent.toolCount]),
          [["alpha", "Agent alpha", 1, 1]],
        );
        await expectStoreError(store.createAgent({ spec: spec("alpha") }), "conflict");
      }),
  },
  {
    name: "keeps every version and refuses a stale base version",
    run: (make) =>
      withStore(make, async (store) => {
        await store.createAgent({ spec: spec("beta") });
        const second = await store.updateAgent({
          id: "beta",
          spec: spec("beta", "Renamed"),
          baseVersion: 1,
          message: "rename",
        });
        assert.equal(second.version, 2);
        await expectStoreError(
          store.updateAgent({ id: "beta", spec: spec("beta"), baseVersion: 1 }),
          "conflict",
        );
        await expectStoreError(
          store.updateAgent({ id: "nope", spec: spec("nope"), baseVersion: 1 }),
          "not_found",
        );
        const versions = await store.listAgentVersions("beta");
        assert.deepEqual(
          versions?.map((version) => [version.version, version.name, version.message]),
          [
            [1, "Agent beta", undefined],
            [2, "Renamed", "rename"],
          ],
        );
        assert.equal((await store.getAgentVersion("beta", 1))?.spec.name, "Agent beta");
        assert.equal((await store.getAgent("beta"))?.version, 2);
        assert.equal(await store.getAgentVersion("beta", 3), undefined);
        assert.equal(await store.listAgentVersions("nope"), undefined);
      }),
  },
  {
    name: "deletes an agent with its versions",
    run: (make) =>
      withStore(make, async (store) => {
        await store.createAgent({ spec: spec("gamma") });
        assert.equal(await store.deleteAgent("gamma"), true);
        assert.equal(await store.deleteAgent("gamma"), false);
        assert.equal(await store.getAgent("gamma"), undefined);
        assert.equal(await store.getAgentVersion("gamma", 1), undefined);
        assert.equal((await store.createAgent({ spec: spec("gamma") })).version, 1);
      }),
  },
  {
    name: "numbers a re-created agent past the versions that runs of the deleted one ran",
    run: (make) =>
      withStore(make, async (store) => {
        await store.createAgent({ spec: spec("kappa") });
        await store.updateAgent({ id: "kappa", spec: spec("kappa", "Second"), baseVersion: 1 });
        await store.createRun({
          id: "run-k",
          agentId: "kappa",
          agentVersion: 2,
          query: "q",
          status: "queued",
        });
        await store.deleteAgent("kappa");
        // A run names the exact version it ran: a new agent under the id must not reuse that number.
        const created = await store.createAgent({ spec: spec("kappa", "Another agent") });
        assert.equal(created.version, 3);
        assert.equal((await store.getAgent("kappa"))?.version, 3);
        assert.equal(await store.getAgentVersion("kappa", 2), undefined);
        assert.deepEqual(
          (await store.listAgentVersions("kappa"))?.map((version) => version.version),
          [3],
        );
        const updated = await store.updateAgent({ id: "kappa", spec: spec("kappa"), baseVersion: 3 });
        assert.equal(updated.version, 4);
      }),
  },
  {
    name: "returns copies that callers cannot change",
    run: (make) =>
      withStore(make, async (store) => {
        const original = spec("delta");
        await store.createAgent({ spec: original });
        original.name = "changed outside";
        const read = await store.getAgent("delta");
        assert.equal(read?.spec.name, "Agent delta");
        read!.spec.name = "changed again";
        assert.equal((await store.getAgent("delta"))?.spec.name, "Agent delta");
      }),
  },
];
