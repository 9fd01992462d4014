import type { InboxItem, InboxResponse } from "@waddle/protocol";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/start-test-server.js";
import { waitForEvent, waitForRun } from "../testing/wait-for-run.js";
import { InboxService } from "./inbox-service.js";

const TOKEN = "bootstrap-token-for-the-inbox";
const HOUR_S = 3_600;

/** An agent whose offline model calls `refund` at once, which always waits for a person first. */
const approvalAgent = (
  id: string,
  extra: Record<string, unknown> = {},
  toolExtra: Record<string, unknown> = {},
) => ({
  version: 1,
  id,
  name: `Agent ${id}`,
  tools: [
    {
      name: "refund",
      desc: "Refunds an order.",
      sideEffects: "write",
      requiresApproval: true,
      argsSchema: {
        type: "object",
        properties: { order: { type: "string", examples: ["A-1"] } },
        required: ["order"],
      },
      impl: { kind: "mock", output: { refunded: true } },
      ...toolExtra,
    },
  ],
  ...extra,
});

let server: TestServer;
const keys: Record<"admin" | "payOps" | "viewer", string> = { admin: TOKEN, payOps: "", viewer: "" };
const as = (key: string) => ({ authorization: `Bearer ${key}` });

async function createKey(body: Record<string, unknown>): Promise<string> {
  const created = await server.request("/api/keys", { method: "POST", headers: as(TOKEN), json: body });
  expect(created.status, created.text).toBe(201);
  return created.body.key as string;
}

async function startPaused(agentId: string, key = TOKEN): Promise<{ runId: string; resumeToken: string }> {
  const started = await server.request("/api/runs", {
    method: "POST",
    headers: as(key),
    json: { agentId, query: "Refund order A-1" },
  });
  expect(started.status, started.text).toBe(202);
  const run = await waitForRun(server, started.body.runId, new Set(["paused", "finished", "failed"]));
  expect(run.status).toBe("paused");
  return { runId: run.id, resumeToken: run.pause!.resumeToken };
}

const inbox = async (query = "", key = TOKEN): Promise<InboxResponse> => {
  const answer = await server.request(`/api/inbox${query}`, { headers: as(key) });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as InboxResponse;
};

/** A session of `agentId` holding one merge for a person (its task results), as its log records it. */
async function holdMerge(agentId: string): Promise<{ sessionId: string; itemId: string }> {
  const sessionId = `ses_${agentId}held${Math.random().toString(16).slice(2, 8)}`;
  await server.store.sessions.create({ id: sessionId, agentId, agentVersion: 1 });
  await server.store.sessions.update(sessionId, () => ({
    events: [
      {
        type: "merge_pending",
        data: {
          mergeId: "merge_1",
          name: "Research batch",
          strategy: "HUMAN_GATED",
          tasks: [
            { taskId: "task_1", runId: "run_task1", name: "research", status: "completed", result: "x" },
          ],
        },
      },
    ],
    result: undefined,
  }));
  return { sessionId, itemId: `merge:${sessionId}:merge_1` };
}

beforeAll(async () => {
  server = await startTestServer({ token: TOKEN, exampleAgentsDir: null });
  for (const spec of [
    approvalAgent("payments", {}, { approval: { timeoutS: HOUR_S, onTimeout: "reject" } }),
    approvalAgent("billing", { approval: { timeoutS: 2 * HOUR_S, onTimeout: "fail" } }),
  ]) {
    expect(
      (await server.request("/api/agents", { method: "POST", headers: as(TOKEN), json: spec })).status,
    ).toBe(201);
  }
  keys.payOps = await createKey({ name: "pay-ops", role: "editor", agents: ["payments"] });
  keys.viewer = await createKey({ name: "watcher", role: "viewer" });
});
afterAll(() => server.stop());

describe("GET /api/inbox", () => {
  it("lists the pauses of two agents and a held merge, newest first, with due times, as the key may see them", async () => {
    const payment = await startPaused("payments", keys.payOps);
    const bill = await startPaused("billing");
    const merge = await holdMerge("billing");
    const all = await inbox();
    const ours = all.items.filter((item) =>
      [`pause:${payment.runId}`, `pause:${bill.runId}`, merge.itemId].includes(item.itemId),
    );
    expect(ours.map((item) => item.itemId)).toEqual([
      merge.itemId,
      `pause:${bill.runId}`,
      `pause:${payment.runId}`,
    ]);
    const [held, billing, refund] = ours as [InboxItem, InboxItem, InboxItem];
    expect(refund).toMatchObject({
      kind: "pause",
      agentId: "payments",
      agentVersion: 1,
      runId: payment.runId,
      reason: "approval_required",
      tool: "refund",
      argsPreview: '{"order":"A-1"}',
      startedBy: "pay-ops",
      assignee: null,
      snoozedUntil: null,
      onTimeout: "reject",
      resumeToken: payment.resumeToken,
    });
    // The tool's own limit; the other agent's applies to every pause it has.
    expect(Date.parse(refund.dueAt!) - Date.parse(refund.createdAt)).toBe(HOUR_S * 1_000);
    expect(billing).toMatchObject({ startedBy: "WADDLE_TOKEN", onTimeout: "fail" });
    expect(Date.parse(billing.dueAt!) - Date.parse(billing.createdAt)).toBe(2 * HOUR_S * 1_000);
    expect(held).toMatchObject({
      kind: "merge",
      agentId: "billing",
      sessionId: merge.sessionId,
      mergeId: "merge_1",
      reason: "Research batch",
      runId: "run_task1",
      dueAt: null,
    });
    expect(all.openCount).toBe(all.items.length);

    // A key limited to one agent sees that agent's items only, and counts only those.
    const scoped = await inbox("", keys.payOps);
    expect(scoped.items.every((item) => item.agentId === "payments")).toBe(true);
    expect(scoped.items.map((item) => item.itemId)).toContain(`pause:${payment.runId}`);
    expect(scoped.openCount).toBe(scoped.items.length);
    expect((await inbox("?agentId=billing", keys.payOps)).items).toEqual([]);

    expect((await inbox("?kind=merge")).items.map((item) => item.kind)).toEqual(
      expect.arrayContaining(["merge"]),
    );
    expect((await inbox("?kind=merge")).items.every((item) => item.kind === "merge")).toBe(true);
    expect((await inbox("?agentId=billing")).items.every((item) => item.agentId === "billing")).toBe(true);
  });

  it("pages by cursor without skipping or repeating an item, and refuses a bad cursor or filter", async () => {
    const everything = (await inbox("?limit=200")).items.map((item) => item.itemId);
    expect(everything.length).toBeGreaterThanOrEqual(3);
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: InboxResponse = await inbox(`?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.items.length).toBeLessThanOrEqual(2);
      walked.push(...page.items.map((item) => item.itemId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(walked).toEqual(everything);
    for (const query of ["?cursor=nonsense", "?kind=task", "?state=later", "?limit=0", "?since=1"]) {
      const answer = await server.request(`/api/inbox${query}`, { headers: as(TOKEN) });
      expect(answer.status, query).toBe(400);
      expect(answer.body.code).toBe("validation_failed");
    }
  });
});

describe("assigning and snoozing", () => {
  it("assigns and snoozes an item the key may decide, hides a snoozed one from open until its time, and audits both", async () => {
    const { runId } = await startPaused("payments");
    const itemId = `pause:${runId}`;
    const post = (path: string, json: unknown, key = keys.payOps) =>
      server.request(`/api/inbox/${itemId}/${path}`, { method: "POST", headers: as(key), json });
    const assigned = await post("assign", { assignee: "sam" });
    expect(assigned.status, assigned.text).toBe(200);
    expect(assigned.body.item).toMatchObject({ itemId, assignee: "sam" });
    expect((await inbox("?assignee=sam")).items.map((item) => item.itemId)).toEqual([itemId]);
    expect((await inbox("?assignee=none")).items.map((item) => item.itemId)).not.toContain(itemId);

    const before = await inbox();
    const until = new Date(Date.now() + HOUR_S * 1_000).toISOString();
    const snoozed = await post("snooze", { until });
    expect(snoozed.status, snoozed.text).toBe(200);
    expect(snoozed.body.item).toMatchObject({ assignee: "sam", snoozedUntil: until });
    const open = await inbox();
    expect(open.items.map((item) => item.itemId)).not.toContain(itemId);
    expect(open.openCount).toBe(before.openCount - 1);
    expect((await inbox("?state=snoozed")).items.map((item) => item.itemId)).toEqual([itemId]);
    expect((await inbox("?state=all")).items.map((item) => item.itemId)).toContain(itemId);
    // Past its time it is open again (the same store read an hour and a second later).
    const later = new InboxService({ store: server.store, now: () => Date.parse(until) + 1_000 });
    const back = await later.list({ agents: null }, {});
    expect(back.items.find((item) => item.itemId === itemId)).toMatchObject({ snoozedUntil: until });
    // null wakes it now.
    expect((await post("snooze", { until: null })).body.item.snoozedUntil).toBeNull();
    expect((await inbox()).items.map((item) => item.itemId)).toContain(itemId);

    const audit = await server.request("/api/audit?actor=pay-ops", { headers: as(TOKEN) });
    const entries = (
      audit.body.entries as { action: string; target: { id: string }; details: unknown }[]
    ).filter((entry) => entry.target.id === itemId);
    expect(entries.map((entry) => entry.action).sort()).toEqual([
      "inbox.assigned",
      "inbox.snoozed",
      "inbox.snoozed",
    ]);
    expect(entries.find((entry) => entry.action === "inbox.assigned")?.details).toMatchObject({
      agentId: "payments",
      runId,
      assignee: "sam",
    });
  });

  it("answers 404 for an item that is not waiting or not the key's, 403 without runs:decide, 400 for bad bodies", async () => {
    const { runId } = await startPaused("billing");
    const post = (itemId: string, path: string, json: unknown, key = keys.payOps) =>
      server.request(`/api/inbox/${encodeURIComponent(itemId)}/${path}`, {
        method: "POST",
        headers: as(key),
        json,
      });
    expect((await post(`pause:${runId}`, "assign", { assignee: "sam" })).status).toBe(404);
    expect((await post("pause:run_nothing", "assign", { assignee: "sam" })).status).toBe(404);
    expect((await post("not-an-item", "snooze", { until: null })).status).toBe(404);
    expect((await post(`merge:ses_nothing:merge_1`, "snooze", { until: null }, TOKEN)).status).toBe(404);
    const forbidden = await post(`pause:${runId}`, "assign", { assignee: "sam" }, keys.viewer);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.details).toMatchObject({ permission: "runs:decide" });
    for (const [path, json] of [
      ["assign", {}],
      ["assign", { assignee: "" }],
      ["snooze", { until: "tomorrow" }],
      ["snooze", { until: new Date(Date.now() - 1_000).toISOString() }],
    ] as const) {
      const answer = await post(`pause:${runId}`, path, json, TOKEN);
      expect(answer.status, `${path} ${JSON.stringify(json)}`).toBe(400);
      expect(answer.body.code).toBe("validation_failed");
    }
  });
});

describe("deciding from the inbox", () => {
  it("goes through the resume route: the item leaves, the run goes on, a second answer is 409 already_answered", async () => {
    const { runId, resumeToken } = await startPaused("payments");
    const resume = () =>
      server.request(`/api/runs/${runId}/resume`, {
        method: "POST",
        headers: as(keys.payOps),
        json: { resumeToken, decision: "approve", userInput: "Refund it" },
      });
    expect((await resume()).status).toBe(202);
    expect((await inbox("?state=all")).items.map((item) => item.itemId)).not.toContain(`pause:${runId}`);
    const run = await waitForRun(server, runId);
    expect(run.status).toBe("finished");
    const resumed = await waitForEvent(server, runId, (event) => event.type === "resumed");
    expect(resumed.data).toMatchObject({ decision: "approve", actor: "pay-ops", note: "Refund it" });
    const second = await resume();
    expect(second.status).toBe(409);
    expect(second.body.details.reason).toBe("already_answered");
  });

  it("goes through the merge route for a held merge, once", async () => {
    const { sessionId, itemId } = await holdMerge("payments");
    expect((await inbox("", keys.payOps)).items.map((item) => item.itemId)).toContain(itemId);
    const decide = () =>
      server.request(`/api/sessions/${sessionId}/merges/merge_1`, {
        method: "POST",
        headers: as(keys.payOps),
        json: { decision: "approve" },
      });
    expect((await decide()).status).toBe(202);
    expect((await inbox("?state=all")).items.map((item) => item.itemId)).not.toContain(itemId);
    const session = await server.request(`/api/sessions/${sessionId}`, { headers: as(TOKEN) });
    expect(session.body.decidedMerges).toEqual([
      expect.objectContaining({ mergeId: "merge_1", actor: "pay-ops" }),
    ]);
    const again = await decide();
    expect(again.status).toBe(409);
    expect(again.body.details.reason).toBe("already_answered");
  });
});

describe("watch_inbox", () => {
  const sockets: Socket[] = [];
  afterAll(() => {
    for (const socket of sockets) socket.close();
  });

  async function watcher(key: string, message: Record<string, unknown> = {}) {
    const socket = connect(server.url, {
      transports: ["websocket"],
      forceNew: true,
      reconnection: false,
      auth: { token: key },
    });
    sockets.push(socket);
    const seen: { event: string; itemId: string; item?: InboxItem }[] = [];
    for (const event of ["inbox_item_added", "inbox_item_updated", "inbox_item_removed"] as const) {
      socket.on(event, (payload: { item?: InboxItem; itemId?: string }) =>
        seen.push({
          event,
          itemId: payload.item?.itemId ?? payload.itemId ?? "",
          ...(payload.item ? { item: payload.item } : {}),
        }),
      );
    }
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("connect_error", reject);
    });
    const ack = (await socket.timeout(5_000).emitWithAck("watch_inbox", message)) as {
      ok: boolean;
      openCount?: number;
      error?: { code: string };
    };
    /** Resolves once the socket got `event` for the item. */
    const until = (event: string, itemId: string) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (seen.some((entry) => entry.event === event && entry.itemId === itemId)) return resolve();
          socket.once(event, check);
        };
        check();
      });
    return { socket, seen, ack, until };
  }

  it("tells every watching socket of items added, updated and removed, each only of its key's agents", async () => {
    const admin = await watcher(TOKEN);
    const scoped = await watcher(keys.payOps);
    expect(admin.ack).toMatchObject({ ok: true, openCount: (await inbox()).openCount });
    expect(scoped.ack).toMatchObject({ ok: true, openCount: (await inbox("", keys.payOps)).openCount });

    const bill = await startPaused("billing");
    const payment = await startPaused("payments");
    const billItem = `pause:${bill.runId}`;
    const payItem = `pause:${payment.runId}`;
    await Promise.all([admin.until("inbox_item_added", billItem), admin.until("inbox_item_added", payItem)]);
    await scoped.until("inbox_item_added", payItem);
    expect(admin.seen.find((entry) => entry.itemId === payItem)?.item).toMatchObject({
      tool: "refund",
      startedBy: "WADDLE_TOKEN",
    });

    await server.request(`/api/inbox/${payItem}/assign`, {
      method: "POST",
      headers: as(TOKEN),
      json: { assignee: "sam" },
    });
    await Promise.all([
      admin.until("inbox_item_updated", payItem),
      scoped.until("inbox_item_updated", payItem),
    ]);
    expect(scoped.seen.find((entry) => entry.event === "inbox_item_updated")?.item?.assignee).toBe("sam");

    await server.request(`/api/runs/${payment.runId}/resume`, {
      method: "POST",
      headers: as(TOKEN),
      json: { resumeToken: payment.resumeToken, decision: "reject" },
    });
    await Promise.all([
      admin.until("inbox_item_removed", payItem),
      scoped.until("inbox_item_removed", payItem),
    ]);
    await server.request(`/api/runs/${bill.runId}/cancel`, { method: "POST", headers: as(TOKEN) });
    await admin.until("inbox_item_removed", billItem);
    // The key limited to payments never heard of billing's item.
    expect(scoped.seen.filter((entry) => entry.itemId === billItem)).toEqual([]);
    expect(admin.seen.filter((entry) => entry.itemId === payItem).map((entry) => entry.event)).toEqual([
      "inbox_item_added",
      "inbox_item_updated",
      "inbox_item_removed",
    ]);
  });

  it("refuses another agent's inbox to a scoped key, and a malformed message", async () => {
    expect((await watcher(keys.payOps, { agentId: "billing" })).ack).toMatchObject({
      ok: false,
      error: { code: "not_found" },
    });
    expect((await watcher(TOKEN, { agentId: 7 })).ack).toMatchObject({
      ok: false,
      error: { code: "validation_failed" },
    });
    const own = await watcher(keys.payOps, { agentId: "payments" });
    expect(own.ack.ok).toBe(true);
  });
});
