import { AgentSpec, type RunRecord } from "@waddle/protocol";
import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Logger } from "../shared/logger.js";
import { MemoryStore } from "../store/memory-store.js";
import type { StoredFire, TriggerRecord } from "../store/triggers/trigger-store.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { createSchedule, getLastFire } from "./schedule-times.js";
import { TriggerFirer } from "./trigger-firer.js";
import { TriggerScheduler } from "./trigger-scheduler.js";

const quiet: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const agent = (id: string, requiresApproval = false) =>
  AgentSpec.parse({
    version: 1,
    id,
    name: id,
    tools: [
      { name: "lookup", desc: "Looks up", requiresApproval, impl: { kind: "mock", output: { ok: true } } },
    ],
  });

let count = 0;
/**
 * A schedule written to the store as it is, so that it may fire every 2 seconds: the API refuses less than
 * 10 (checked in triggers-routes.test.ts); the scheduler fires whatever the store holds.
 */
function schedule(
  agentId: string,
  extra: Partial<TriggerRecord> = {},
): Extract<TriggerRecord, { kind: "schedule" }> {
  const now = new Date().toISOString();
  return {
    kind: "schedule",
    cron: "*/2 * * * * *",
    timezone: "UTC",
    query: "Report",
    overlap: "allow",
    catchUp: "none",
    id: `trg_sched${(count += 1)}`,
    agentId,
    name: null,
    enabled: true,
    createdAt: now,
    createdBy: "test",
    updatedAt: now,
    lastFiredAt: null,
    secret: null,
    ...extra,
  } as Extract<TriggerRecord, { kind: "schedule" }>;
}

/** Resolves once the trigger's fires pass `match`, read again at each run change (fires start runs). */
async function waitForFires(
  target: Pick<TestServer, "store" | "hub">,
  triggerId: string,
  match: (fires: StoredFire[]) => boolean,
  timeoutMs = 20_000,
): Promise<StoredFire[]> {
  const deadline = Date.now() + timeoutMs;
  let wake: () => void = () => undefined;
  const stop = target.hub.onRunChange(() => wake());
  try {
    for (;;) {
      const changed = new Promise<void>((resolve) => {
        wake = resolve;
        // A fire that starts no run (queued, skipped) changes no run: read again now and then too.
        setTimeout(resolve, 250);
      });
      const fires = await target.store.triggers.listFires(triggerId);
      if (match(fires)) return fires;
      if (Date.now() > deadline) throw new Error(`fires of ${triggerId}: ${JSON.stringify(fires)}`);
      await changed;
    }
  } finally {
    stop();
  }
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ exampleAgentsDir: null });
  await server.store.createAgent({ spec: agent("reporter") });
  await server.store.createAgent({ spec: agent("gated", true) });
});
afterAll(() => server.stop());

describe("the scheduler", () => {
  it("fires every tick once, each a run that the agent's watchers see live, listed in History by trigger", async () => {
    const socket = connect(server.url, { transports: ["websocket"], forceNew: true, reconnection: false });
    const trigger = schedule("reporter");
    // A fired run reaches the agent's watchers (History, the canvas) as any run does.
    const live = new Promise<RunRecord>((resolve) =>
      socket.on("run_updated", (run: RunRecord) => {
        if (run.trigger?.id === trigger.id) resolve(run);
      }),
    );
    await socket.timeout(5_000).emitWithAck("watch_agent", { agentId: "reporter" });
    await server.store.triggers.create(trigger);
    const fires = await waitForFires(server, trigger.id, (list) => list.length >= 3);
    await server.store.triggers.replace({ ...trigger, enabled: false, updatedAt: new Date().toISOString() });
    const watched = await live;
    socket.close();

    const ticks = fires.map((fire) => Date.parse(fire.firedAt)).reverse();
    expect(ticks.every((tick) => tick % 2_000 === 0)).toBe(true);
    // Consecutive ticks, none lost, none twice.
    expect(ticks.slice(1).map((tick, index) => tick - ticks[index]!)).toEqual(
      ticks.slice(1).map(() => 2_000),
    );
    expect(fires.every((fire) => fire.status === "started" && fire.runId)).toBe(true);
    const listed = await server.request(`/api/runs?trigger=${trigger.id}&limit=100`);
    const runIds = fires.map((fire) => fire.runId);
    expect(
      (listed.body.runs as RunRecord[]).map((run) => run.id).filter((id) => runIds.includes(id)),
    ).toEqual(runIds);
    expect(listed.body.runs[0]).toMatchObject({ trigger: { id: trigger.id, kind: "schedule" } });
    expect((await server.request(`/api/runs?triggerKind=webhook&agentId=reporter`)).body.runs).toEqual([]);
    expect(runIds).toContain(watched.id);
  });

  it("with overlap queue, starts the waiting tick as soon as the previous run ends", async () => {
    const trigger = schedule("gated", { overlap: "queue" });
    await server.store.triggers.create(trigger);
    const waiting = await waitForFires(server, trigger.id, (list) =>
      list.some((fire) => fire.status === "queued"),
    );
    await server.store.triggers.replace({
      ...trigger,
      cron: "0 0 1 1 *",
      updatedAt: new Date().toISOString(),
    });
    const first = waiting.find((fire) => fire.status === "started")!;
    const queued = waiting.find((fire) => fire.status === "queued")!;
    await server.runs.cancelRun(first.runId!);
    // The run's end (a status change) wakes the scheduler: no sweep of the store is waited for.
    const after = await waitForFires(server, trigger.id, (list) =>
      list.some((fire) => fire.id === queued.id && fire.status === "started"),
    );
    const started = after.find((fire) => fire.id === queued.id)!;
    expect((await server.store.getRun(started.runId!))?.trigger).toEqual({
      id: trigger.id,
      kind: "schedule",
    });
    await server.runs.cancelRun(started.runId!);
  });

  it("fires a tick whose claimer died once its claim lapses", async () => {
    const trigger = schedule("reporter", { cron: "0 0 1 1 *" });
    await server.store.triggers.create(trigger);
    const tick = "2030-01-01T00:00:00.000Z";
    expect(
      await server.store.triggers.claimTick({ triggerId: trigger.id, tick, owner: "dead", leaseMs: 0 }),
    ).toBe(true);
    const [fire] = await waitForFires(server, trigger.id, (list) => list.length === 1);
    expect(fire).toMatchObject({ firedAt: tick, status: "started" });
    expect(
      await server.store.triggers.claimTick({ triggerId: trigger.id, tick, owner: "late", leaseMs: 0 }),
    ).toBe(false);
  });
});

describe("catch-up at start", () => {
  it("fires the last tick missed while no server ran with catchUp last, once, and nothing with none", async () => {
    const store = new MemoryStore();
    await store.createAgent({ spec: agent("reporter") });
    const threeHoursAgo = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const hourly = { cron: "0 * * * *", createdAt: threeHoursAgo, updatedAt: threeHoursAgo };
    const last = schedule("reporter", { ...hourly, catchUp: "last" });
    const none = schedule("reporter", { ...hourly, catchUp: "none" });
    await store.triggers.create(last);
    await store.triggers.create(none);
    const missed = new Date(getLastFire(createSchedule(last), Date.now())!).toISOString();

    const restarted = await startTestServer({ store, exampleAgentsDir: null });
    try {
      const [fire] = await waitForFires(restarted, last.id, (list) => list.length > 0);
      expect(fire).toMatchObject({ firedAt: missed, status: "started" });
      // Nobody claimed the missed tick of `none`.
      expect(
        await store.triggers.claimTick({ triggerId: none.id, tick: missed, owner: "probe", leaseMs: 0 }),
      ).toBe(true);
      // Another start (a second instance, or the next restart) finds the tick done: no second fire.
      const firer = new TriggerFirer({ store, runs: restarted.runs, logger: quiet, notify: () => undefined });
      const again = new TriggerScheduler({
        store,
        firer,
        hub: restarted.hub,
        logger: quiet,
        owner: "again",
        leaseMs: 10_000,
      });
      await again.start();
      await again.stop();
      expect((await store.triggers.listFires(last.id)).length).toBe(1);
    } finally {
      await restarted.stop();
    }
  });
});
