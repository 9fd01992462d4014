import { stateStoreConformanceCases } from "@waddle/planner/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMissingPartsReason } from "../testing/real-parts.js";
import { startTestPostgres, type TestPostgres } from "../testing/start-postgres.js";
import { PausedStateStore } from "./paused-state-store.js";
import { PgStore } from "./pg-store.js";
import { storeConformanceCases } from "./store-conformance.js";

const skip = getMissingPartsReason(["postgres"]);

describe.skipIf(skip)("PgStore", () => {
  let postgres: TestPostgres;
  const stores: PgStore[] = [];
  beforeAll(async () => {
    postgres = await startTestPostgres();
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await postgres?.destroy();
  });
  /** A store on a database of its own. */
  const makeStore = async (options: { retryForMs?: number } = {}) => {
    const store = await PgStore.open({ connectionString: await postgres.createDatabase(), ...options });
    stores.push(store);
    return store;
  };

  describe("passes the store conformance suite", () => {
    it.each(storeConformanceCases)("$name", async ({ run }) => {
      await run(makeStore);
    });
  });

  describe("passes the planner's StateStore suite through PausedStateStore", () => {
    it.each(stateStoreConformanceCases)("$name", async ({ run }) => {
      const store = await makeStore();
      await run(() => new PausedStateStore(store, "run_x"));
    });
  });

  it("migrates once when several instances open one database at the same time", async () => {
    const url = await postgres.createDatabase();
    const opened = await Promise.all([1, 2, 3].map(() => PgStore.open({ connectionString: url })));
    stores.push(...opened);
    await opened[0]!.createRun({ id: "r", agentId: "a", agentVersion: 1, query: "q", status: "queued" });
    expect((await opened[2]!.getRun("r"))?.status).toBe("queued");
  });

  it("waits for a restarted PostgreSQL instead of failing, and loses nothing written", async () => {
    const availability: boolean[] = [];
    const url = await postgres.createDatabase();
    const store = await PgStore.open({
      connectionString: url,
      retryForMs: 20_000,
      onAvailability: (available) => availability.push(available),
    });
    stores.push(store);
    await store.createRun({ id: "r", agentId: "a", agentVersion: 1, query: "q", status: "running" });
    const event = (seq: number) => ({
      event: {
        runId: "r",
        seq,
        ts: seq,
        step: 0,
        type: "step_start" as const,
        data: { source: "llm" as const },
      },
    });
    await store.appendEvents([event(1)]);
    await postgres.stop();
    const pending = store.appendEvents([event(2), event(3)]);
    await expect(store.ping()).rejects.toThrow();
    await postgres.start();
    await pending;
    await store.ping();
    expect((await store.listEvents("r")).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(availability).toEqual([false, true]);
  }, 30_000);
});
