import { AgentSpec, type NotificationEvent } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NotificationData } from "../notifications/notify.js";
import type { Logger } from "../shared/logger.js";
import type { StoredFire, TriggerRecord } from "../store/triggers/trigger-store.js";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForRun } from "../testing/wait-for-run.js";
import { TriggerFirer } from "./trigger-firer.js";
import { getFireRunId, getTickFireId } from "./trigger-ids.js";

const quiet: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
let server: TestServer;
let firer: TriggerFirer;
const notices: { type: NotificationEvent; data: NotificationData }[] = [];

/** Its one tool waits for a person: a fired run stays going (paused) until it is cancelled. */
const GATED = AgentSpec.parse({
  version: 1,
  id: "gated",
  name: "Gated",
  tools: [
    {
      name: "refund",
      desc: "Refunds an order",
      sideEffects: "external",
      requiresApproval: true,
      impl: { kind: "mock", output: { refunded: true } },
    },
  ],
});

let count = 0;
/** A schedule that never fires on its own during the test (1 January): ticks are fired by hand. */
async function createSchedule(
  extra: Partial<TriggerRecord> = {},
): Promise<Extract<TriggerRecord, { kind: "schedule" }>> {
  const now = new Date().toISOString();
  const trigger = {
    kind: "schedule",
    cron: "0 0 1 1 *",
    timezone: "UTC",
    query: "Refund order 7",
    overlap: "skip",
    catchUp: "none",
    id: `trg_firing${(count += 1)}`,
    agentId: GATED.id,
    name: null,
    enabled: true,
    createdAt: now,
    createdBy: "test",
    updatedAt: now,
    lastFiredAt: null,
    secret: null,
    ...extra,
  } as Extract<TriggerRecord, { kind: "schedule" }>;
  await server.store.triggers.create(trigger);
  return trigger;
}

const tick = (year: number) => `${year}-01-01T00:00:00.000Z`;
const statuses = async (triggerId: string) =>
  (await server.store.triggers.listFires(triggerId)).map((fire) => [fire.firedAt.slice(0, 4), fire.status]);

async function startedPaused(fire: StoredFire): Promise<string> {
  expect(fire.status).toBe("started");
  await waitForRun(server, fire.runId!, new Set(["paused"]));
  return fire.runId!;
}

beforeAll(async () => {
  server = await startTestServer({ exampleAgentsDir: null });
  await server.store.createAgent({ spec: GATED });
  firer = new TriggerFirer({
    store: server.store,
    runs: server.runs,
    logger: quiet,
    notify: (type, data) => void notices.push({ type, data }),
  });
});
afterAll(() => server.stop());

describe("firing a tick", () => {
  it("starts one run per tick on the latest save, with the trigger in its summary, however often it is fired", async () => {
    const trigger = await createSchedule({ overlap: "allow" });
    const first = await firer.fireTick(trigger, tick(2030));
    const again = await firer.fireTick(trigger, tick(2030));
    expect(again.fire).toEqual(first.fire);
    expect(first.fire).toMatchObject({
      id: getTickFireId(trigger.id, tick(2030)),
      runId: getFireRunId(first.fire.id),
    });
    const run = await waitForRun(server, first.fire.runId!, new Set(["paused"]));
    expect(run).toMatchObject({
      agentId: GATED.id,
      query: "Refund order 7",
      trigger: { id: trigger.id, kind: "schedule" },
    });
    expect((await server.store.listRuns({ trigger: trigger.id })).map((entry) => entry.id)).toEqual([run.id]);
    expect((await server.store.triggers.get(trigger.id))?.lastFiredAt).toBe(tick(2030));
    await server.runs.cancelRun(run.id);
  });

  it("overlap skip: a tick while the previous fire's run is going is skipped, and says why", async () => {
    const trigger = await createSchedule({ overlap: "skip" });
    const runId = await startedPaused((await firer.fireTick(trigger, tick(2030))).fire);
    const skipped = await firer.fireTick(trigger, tick(2031));
    expect(skipped.fire).toMatchObject({
      status: "skipped",
      runId: null,
      error: { code: "skipped_overlap" },
    });
    expect(skipped.fire.error?.message).toContain(runId);
    await server.runs.cancelRun(runId);
    expect((await firer.fireTick(trigger, tick(2032))).fire.status).toBe("started");
    expect(await statuses(trigger.id)).toEqual([
      ["2032", "started"],
      ["2031", "skipped"],
      ["2030", "started"],
    ]);
    await server.runs.cancelRun((await server.store.triggers.listFires(trigger.id))[0]!.runId!);
  });

  it("overlap queue: one tick waits for the previous run and starts when it ends; a further one is skipped", async () => {
    const trigger = await createSchedule({ overlap: "queue" });
    const runId = await startedPaused((await firer.fireTick(trigger, tick(2030))).fire);
    expect((await firer.fireTick(trigger, tick(2031))).fire).toMatchObject({ status: "queued", runId: null });
    expect((await firer.fireTick(trigger, tick(2032))).fire).toMatchObject({
      status: "skipped",
      error: { code: "skipped_overlap" },
    });
    // Still going: nothing starts, and the run it waits for is named.
    expect((await firer.drainQueued()).get(trigger.id)).toBe(runId);
    expect((await server.store.triggers.getFire(getTickFireId(trigger.id, tick(2031))))?.status).toBe(
      "queued",
    );
    await server.runs.cancelRun(runId);
    expect((await firer.drainQueued()).has(trigger.id)).toBe(false);
    const waited = await server.store.triggers.getFire(getTickFireId(trigger.id, tick(2031)));
    expect(waited).toMatchObject({ status: "started", runId: getFireRunId(waited!.id) });
    await waitForRun(server, waited!.runId!, new Set(["paused"]));
    // Drained again (another instance): still one run.
    await firer.drainQueued();
    expect((await server.store.listRuns({ trigger: trigger.id })).length).toBe(2);
    await server.runs.cancelRun(waited!.runId!);
  });

  it("overlap allow: every tick starts its run", async () => {
    const trigger = await createSchedule({ overlap: "allow" });
    await startedPaused((await firer.fireTick(trigger, tick(2030))).fire);
    await startedPaused((await firer.fireTick(trigger, tick(2031))).fire);
    for (const run of await server.store.listRuns({ trigger: trigger.id }))
      await server.runs.cancelRun(run.id);
  });

  it("fails a fire whose channel does not exist (any more) with channel_not_found, and sends trigger.failed", async () => {
    const trigger = await createSchedule({ channel: "staging" });
    const failed = await firer.fireTick(trigger, tick(2030));
    expect(failed.fire).toMatchObject({
      status: "failed",
      runId: null,
      error: { code: "channel_not_found" },
    });
    expect(failed.error?.status).toBe(409);
    expect(notices.at(-1)).toMatchObject({
      type: "trigger.failed",
      data: {
        agentId: GATED.id,
        triggerId: trigger.id,
        kind: "schedule",
        error: { code: "channel_not_found" },
      },
    });

    // Released to staging: fires run that version. The channel removed: they fail again.
    const released = await server.request(`/api/agents/${GATED.id}/releases`, {
      method: "POST",
      json: { version: 1, channel: "staging" },
    });
    expect(released.status, released.text).toBe(201);
    const served = await firer.fireTick(trigger, tick(2031));
    expect(served.fire.status).toBe("started");
    expect(await server.store.getRun(served.fire.runId!)).toMatchObject({
      channel: "staging",
      agentVersion: 1,
    });
    await server.runs.cancelRun(served.fire.runId!);
    await server.store.releases.deleteAgent(GATED.id);
    expect((await firer.fireTick(trigger, tick(2032))).fire.error?.code).toBe("channel_not_found");
    const listed = await server.request(`/api/agents/${GATED.id}/triggers/${trigger.id}/fires`);
    expect(listed.body.fires.map((fire: StoredFire) => fire.error?.code ?? fire.status)).toEqual([
      "channel_not_found",
      "started",
      "channel_not_found",
    ]);
  });
});
