import { AgentSpec } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgStore } from "../store/pg-store.js";
import type { StoredFire, TriggerRecord } from "../store/triggers/trigger-store.js";
import { getMissingPartsReason } from "../testing/real-parts.js";
import { startTestCluster, type ClusterInstance, type TestCluster } from "../testing/start-test-cluster.js";
import { createSchedule, getNextFire } from "../triggers/schedule-times.js";

const skip = getMissingPartsReason(["postgres", "redis"]);

const AGENT = AgentSpec.parse({
  version: 1,
  id: "scheduled-report",
  name: "Scheduled report",
  tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true } } }],
});

const iso = (ms: number) => new Date(ms).toISOString();
const until = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms - Date.now())));

/** Reads until `check` holds (the fires are the events waited for), failing after `timeoutMs`. */
async function poll<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out; last read: ${JSON.stringify(value).slice(0, 2_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `WADDLE_TEST_SCALE_OUT=only npx vitest run server/src/scale/scale-out-triggers.test.ts` */
describe.skipIf(skip)("triggers in queue mode: three instances fire each tick of a schedule once", () => {
  let cluster: TestCluster;
  let instances: ClusterInstance[];
  let store: PgStore;
  beforeAll(async () => {
    cluster = await startTestCluster();
    // One after the other: the first applies the migrations.
    instances = [];
    for (let index = 0; index < 3; index++) instances.push(await cluster.start("all"));
    store = await PgStore.open({ connectionString: cluster.databaseUrl });
    expect((await instances[0]!.request("/api/agents", { json: AGENT })).status).toBe(201);
  }, 180_000);
  afterAll(async () => {
    await store?.close();
    await cluster?.destroy();
  });

  it("fires every tick once, across an instance killed at a tick and a claim whose instance died", async () => {
    const now = new Date().toISOString();
    // Every 3 seconds, written to the store as it is: the API's floor is 10 s, the scheduler fires what is stored.
    const trigger = {
      kind: "schedule",
      cron: "*/3 * * * * *",
      timezone: "UTC",
      query: "Scheduled report",
      overlap: "allow",
      catchUp: "none",
      id: "trg_scaleout",
      agentId: AGENT.id,
      name: null,
      enabled: true,
      createdAt: now,
      createdBy: "test",
      updatedAt: now,
      lastFiredAt: null,
      secret: null,
    } as TriggerRecord;
    await store.triggers.create(trigger);
    const schedule = createSchedule({ cron: "*/3 * * * * *", timezone: "UTC" });
    const list = () => store.triggers.listFires(trigger.id, { limit: 1_000 });
    const [first] = await poll(list, (fires) => fires.length > 0);
    const firstTick = Date.parse(first!.firedAt);

    // An instance that claimed a tick and died before firing it: its claim lapses 2 s after the tick.
    const orphaned = getNextFire(schedule, Date.now() + 500)!;
    const leaseMs = orphaned - Date.now() + 2_000;
    expect(
      await store.triggers.claimTick({ triggerId: trigger.id, tick: iso(orphaned), owner: "dead", leaseMs }),
    ).toBe(true);
    // An instance killed at the next tick, whatever it was doing then.
    const killedAt = getNextFire(schedule, orphaned)!;
    await until(killedAt);
    instances[0]!.child.kill("SIGKILL");
    const lastTick = [1, 2, 3].reduce((tick) => getNextFire(schedule, tick)!, killedAt);
    await poll(list, (fires) => fires.some((fire) => Date.parse(fire.firedAt) >= lastTick), 60_000);
    await store.triggers.replace({ ...trigger, enabled: false, updatedAt: new Date().toISOString() });

    const expected: string[] = [];
    for (let tick = firstTick; tick <= lastTick; tick = getNextFire(schedule, tick)!)
      expected.push(iso(tick));
    const fires = (await list()).filter((fire) => Date.parse(fire.firedAt) <= lastTick).reverse();
    // One fire per tick, none lost (the orphaned and the killed ones included), each a started run.
    expect(fires.map((fire) => fire.firedAt)).toEqual(expected);
    expect(fires.every((fire: StoredFire) => fire.status === "started" && fire.runId !== null)).toBe(true);
    const runIds = fires.map((fire) => fire.runId!);
    expect(new Set(runIds).size).toBe(runIds.length);
    // No run besides the fires' own: the runs of the trigger are exactly one per fire.
    const runs = await store.listRuns({ trigger: trigger.id });
    expect(runs.map((run) => run.id).sort()).toEqual((await list()).map((fire) => fire.runId!).sort());
    for (const tick of expected) {
      expect(
        await store.triggers.claimTick({ triggerId: trigger.id, tick, owner: "probe", leaseMs: 0 }),
      ).toBe(false);
    }
    // The orphaned tick waited for its claim to lapse, then fired on a live instance.
    const orphanRun = await store.getRun(fires.find((fire) => fire.firedAt === iso(orphaned))!.runId!);
    expect(Date.parse(orphanRun!.createdAt!)).toBeGreaterThanOrEqual(orphaned + 2_000 - 50);
    // Every run ends, those the killed instance held included.
    for (const runId of runIds)
      expect((await cluster.waitForRun(runId, undefined, 60_000)).status).toBe("finished");
  }, 180_000);
});
