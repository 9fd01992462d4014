import assert from "node:assert/strict";
import { withStore, type StoreConformanceCase } from "../store-claim-cases.js";
import type { StoredCredential } from "./credential-store.js";

const llm: StoredCredential = {
  name: "OPENAI_KEY",
  kind: "llm",
  sealed: "v1:c2VhbGVk",
  last4: "wxyz",
  baseUrl: "http://127.0.0.1:11434/v1",
  models: ["gpt-4o-mini", "llama3"],
  updatedAt: "2025-01-01T00:00:00.000Z",
};
const secret: StoredCredential = {
  name: "WEATHER_TOKEN",
  kind: "secret",
  sealed: "v1:b3RoZXI=",
  last4: "abcd",
  updatedAt: "2025-01-02T00:00:00.000Z",
};

/** Credentials and added allow-list entries: kept as given, replaced by name, deleted, lists replaced whole. */
export const credentialStoreCases: readonly StoreConformanceCase[] = [
  {
    name: "credentials: stores, lists by name, replaces by name and deletes",
    run: (make) =>
      withStore(make, async (store) => {
        const credentials = store.credentials;
        assert.deepEqual(await credentials.list(), []);
        await credentials.put(secret);
        await credentials.put(llm);
        assert.deepEqual(await credentials.list(), [llm, secret]);
        assert.deepEqual(await credentials.get("OPENAI_KEY"), llm);
        assert.equal(await credentials.get("MISSING"), undefined);
        const replaced: StoredCredential = {
          name: "OPENAI_KEY",
          kind: "secret",
          sealed: "v1:bmV3",
          last4: "1234",
          updatedAt: "2025-02-01T00:00:00.000Z",
        };
        await credentials.put(replaced);
        // The optional fields of the old value are gone, not kept.
        assert.deepEqual(await credentials.get("OPENAI_KEY"), replaced);
        assert.equal(await credentials.delete("OPENAI_KEY"), true);
        assert.equal(await credentials.delete("OPENAI_KEY"), false);
        assert.deepEqual(await credentials.list(), [secret]);
      }),
  },
  {
    name: "credentials: allow-list entries are replaced whole, keep their order and drop repeats",
    run: (make) =>
      withStore(make, async (store) => {
        const credentials = store.credentials;
        assert.deepEqual(await credentials.getAllowList(), { http: [], llm: [] });
        await credentials.putAllowList({
          http: ["api.example.com", "127.0.0.1:8080", "*.weather.test", "api.example.com"],
          llm: ["http://127.0.0.1:11434"],
        });
        assert.deepEqual(await credentials.getAllowList(), {
          http: ["api.example.com", "127.0.0.1:8080", "*.weather.test"],
          llm: ["http://127.0.0.1:11434"],
        });
        await credentials.putAllowList({ http: ["b.example.com", "a.example.com"], llm: [] });
        assert.deepEqual(await credentials.getAllowList(), {
          http: ["b.example.com", "a.example.com"],
          llm: [],
        });
      }),
  },
  {
    name: "runs: a run the person chose to run on the offline model says so; others do not",
    run: (make) =>
      withStore(make, async (store) => {
        const base = { agentId: "a", agentVersion: 1, query: "q", status: "queued" as const };
        await store.createRun({ ...base, id: "run-chosen", offline: true, offlineChosen: true });
        await store.createRun({ ...base, id: "run-plain" });
        assert.equal((await store.getRun("run-chosen"))?.offlineChosen, true);
        assert.equal((await store.getRun("run-chosen"))?.offline, true);
        assert.equal((await store.getRun("run-plain"))?.offlineChosen, undefined);
        const listed = await store.listRuns({ agentId: "a" });
        assert.deepEqual(listed.map((run) => [run.id, run.offlineChosen === true]).sort(), [
          ["run-chosen", true],
          ["run-plain", false],
        ]);
      }),
  },
];
