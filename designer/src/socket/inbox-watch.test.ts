import type { InboxItem } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { InboxSocketServer } from "../testing/fake-inbox.js";
import { settle } from "../testing/run-transport-conformance.js";
import { watchInbox, type InboxWatchListener } from "./inbox-watch.js";

const item: InboxItem = {
  itemId: "pause:run_1",
  kind: "pause",
  agentId: "mailer",
  agentVersion: 1,
  runId: "run_1",
  reason: "approval_required",
  startedBy: "alice",
  createdAt: "2026-01-05T09:00:00Z",
};

function record() {
  const heard: string[] = [];
  const listener: InboxWatchListener = {
    onWatched: (count) => heard.push(`watched ${count}`),
    onAdded: (added) => heard.push(`added ${added.itemId}`),
    onUpdated: (updated) => heard.push(`updated ${updated.itemId} ${updated.assignee ?? "-"}`),
    onRemoved: (removed) => heard.push(`removed ${removed.itemId} ${removed.decision ?? ""}`),
    onError: (error) => heard.push(`error ${error.code}`),
  };
  return { heard, listener };
}

describe("watchInbox", () => {
  it("watches once connected, hands on checked messages, and stops with unwatch_inbox", async () => {
    const server = new InboxSocketServer();
    server.openCount = 2;
    const connection = server.createConnection();
    const { heard, listener } = record();
    const stop = watchInbox(connection, listener);
    await settle();
    server.send("inbox_item_added", { item });
    server.send("inbox_item_added", { item: { ...item, kind: "nonsense" } });
    server.send("inbox_item_updated", { item: { ...item, assignee: "bob" } });
    server.send("inbox_item_removed", { itemId: item.itemId, decision: "timeout", actor: "timeout" });
    stop();
    server.send("inbox_item_added", { item });
    expect(heard).toEqual([
      "watched 2",
      "added pause:run_1",
      "updated pause:run_1 bob",
      "removed pause:run_1 timeout",
    ]);
    expect(server.received.map((message) => message.name)).toEqual(["watch_inbox", "unwatch_inbox"]);
  });

  it("watches again after a reconnect, so the count and list are read afresh", async () => {
    const server = new InboxSocketServer();
    server.openCount = 2;
    const connection = server.createConnection();
    const { heard, listener } = record();
    watchInbox(connection, listener);
    await settle();
    server.dropConnection();
    server.openCount = 5;
    server.restoreConnection();
    await settle();
    expect(heard).toEqual(["watched 2", "watched 5"]);
  });

  it("tells the listener when the server refuses the watch", async () => {
    const server = new InboxSocketServer();
    server.refuseInbox = { code: "forbidden", message: "no inbox for this key" };
    const { heard, listener } = record();
    watchInbox(server.createConnection(), listener);
    await settle();
    expect(heard).toEqual(["error forbidden"]);
  });
});
