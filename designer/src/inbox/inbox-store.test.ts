import { describe, expect, it } from "vitest";
import { FakeInboxApi, InboxSocketServer, makeInboxItem } from "../testing/fake-inbox.js";
import { settle } from "../testing/run-transport-conformance.js";
import { createInboxStore } from "./inbox-store.js";

const now = Date.parse("2026-01-05T10:00:00Z");
const first = makeInboxItem();
const second = makeInboxItem({
  itemId: "pause:run_2",
  runId: "run_2",
  agentId: "billing",
  createdAt: "2026-01-05T09:05:00Z",
  resumeToken: "tok_2",
});
const merge = makeInboxItem({
  itemId: "merge:ses_1:m_1",
  kind: "merge",
  reason: "research",
  sessionId: "ses_1",
  mergeId: "m_1",
  tool: undefined,
  createdAt: "2026-01-05T09:02:00Z",
});

async function setup() {
  const api = new FakeInboxApi();
  api.add(first, second, merge);
  const server = new InboxSocketServer();
  server.openCount = 3;
  const store = createInboxStore({
    api,
    link: server.createConnection(),
    getMe: () => "alice",
    now: () => now,
  });
  await settle();
  return { api, server, store };
}

const ids = (items: readonly { itemId: string }[]) => items.map((item) => item.itemId);

describe("the inbox store", () => {
  it("counts open items from the watch's acknowledgement, and keeps the count live", async () => {
    const { api, server, store } = await setup();
    const stop = store.getState().watch();
    await settle();
    expect(store.getState().openCount).toBe(3);
    const added = makeInboxItem({ itemId: "pause:run_3", runId: "run_3", createdAt: "2026-01-05T09:59:00Z" });
    api.add(added);
    server.send("inbox_item_added", { item: added });
    await settle();
    expect(store.getState().openCount).toBe(4);
    // the list is not loaded until the page asks: a live item does not fill it
    expect(store.getState().items).toEqual([]);
    stop();
    expect(server.received.map((message) => message.name)).toEqual(["watch_inbox", "unwatch_inbox"]);
  });

  it("loads the page newest first under its filters, and follows live changes", async () => {
    const { api, server, store } = await setup();
    store.getState().watch();
    await store.getState().load();
    expect(ids(store.getState().items)).toEqual(["pause:run_2", "merge:ses_1:m_1", "pause:run_1"]);
    await store.getState().setFilter({ kind: "pause", assignee: "me" });
    expect(api.calls.at(-2)).toBe("list kind=pause&assignee=alice&state=open&limit=50");
    expect(store.getState().items).toEqual([]);
    // assigned to me elsewhere: it comes in; snoozed elsewhere: it leaves
    const mine = { ...first, assignee: "alice" };
    server.send("inbox_item_updated", { item: mine });
    expect(ids(store.getState().items)).toEqual(["pause:run_1"]);
    server.send("inbox_item_updated", { item: { ...mine, snoozedUntil: "2026-01-05T11:00:00Z" } });
    expect(store.getState().items).toEqual([]);
    await store.getState().setFilter({ kind: null, assignee: null });
    server.send("inbox_item_removed", { itemId: "pause:run_2", decision: "approve", actor: "bob" });
    expect(ids(store.getState().items)).toEqual(["merge:ses_1:m_1", "pause:run_1"]);
  });

  it("sends a pause's decision with its note through the resume route, and the item leaves", async () => {
    const { api, store } = await setup();
    await store.getState().load();
    const decided = await store.getState().decide(first, { decision: "approve", userInput: "fine by me" });
    expect(decided).toBe(true);
    expect(api.calls).toContain('resume run_1 approve "fine by me"');
    expect(ids(store.getState().items)).toEqual(["pause:run_2", "merge:ses_1:m_1"]);
    // a merge is decided on its session's merge route
    await store.getState().decide(merge, { decision: "reject", userInput: "not this one" });
    expect(api.calls).toContain('merge ses_1 m_1 reject "not this one"');
  });

  it("says plainly when someone already decided, and drops the item", async () => {
    const { api, store } = await setup();
    await store.getState().load();
    api.decided.add("pause:run_2");
    expect(await store.getState().decide(second, { decision: "reject" })).toBe(false);
    expect(store.getState().notice).toBe("billing · alpha needs approval: Someone already decided this.");
    expect(ids(store.getState().items)).not.toContain("pause:run_2");
  });

  it("assigns and snoozes through the inbox routes, keeping the item's errors on it", async () => {
    const { api, store } = await setup();
    await store.getState().load();
    expect(await store.getState().assign("pause:run_1", "bob")).toBe(true);
    expect(store.getState().items.find((item) => item.itemId === "pause:run_1")?.assignee).toBe("bob");
    expect(await store.getState().snooze("pause:run_1", "2026-01-05T11:00:00.000Z")).toBe(true);
    // snoozed: it leaves the open list
    expect(ids(store.getState().items)).not.toContain("pause:run_1");
    expect(api.calls).toContain("snooze pause:run_1 2026-01-05T11:00:00.000Z");
  });

  it("reads the whole args and the tool's spec for an edit, the spec once per version", async () => {
    const { api, store } = await setup();
    const detail = await store.getState().getPauseDetail(first);
    expect(detail.args).toEqual({ to: "dana@example.com", body: "The whole text" });
    expect(detail.tool?.name).toBe("alpha");
    await store.getState().getPauseDetail(first);
    expect(api.calls.filter((call) => call.startsWith("version"))).toEqual(["version mailer@1"]);
  });

  it("reads why a stuck or guarded run paused: the pause's payload, which the list leaves out", async () => {
    const { api, store } = await setup();
    const stuck = makeInboxItem({ itemId: "pause:run_9", runId: "run_9", reason: "stuck", tool: undefined });
    api.add(stuck);
    api.pausePayloads.set("run_9", {
      pattern: "repeat",
      tools: ["search_docs"],
      count: 3,
      message: "The run looks stuck: search_docs called 3 times with the same arguments.",
    });
    const detail = await store.getState().getPauseDetail(stuck);
    expect(detail.payload.message).toBe(
      "The run looks stuck: search_docs called 3 times with the same arguments.",
    );
  });
});
