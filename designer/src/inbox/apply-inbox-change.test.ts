import type { InboxItem } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { appendInboxPage, removeInboxItem, upsertInboxItem } from "./apply-inbox-change.js";

const make = (id: string, createdAt: string): InboxItem => ({
  itemId: id,
  kind: "pause",
  agentId: "mailer",
  agentVersion: 1,
  runId: id,
  reason: "approval_required",
  startedBy: "alice",
  createdAt,
});
const ids = (items: readonly InboxItem[]) => items.map((item) => item.itemId);

describe("upsertInboxItem", () => {
  const list = [make("c", "2026-01-05T09:03:00Z"), make("a", "2026-01-05T09:01:00Z")];

  it("puts a new item in its newest-first place", () => {
    expect(ids(upsertInboxItem(list, make("d", "2026-01-05T09:04:00Z"), true))).toEqual(["d", "c", "a"]);
    expect(ids(upsertInboxItem(list, make("b", "2026-01-05T09:02:00Z"), true))).toEqual(["c", "b", "a"]);
    expect(ids(upsertInboxItem(list, make("z", "2026-01-05T09:00:00Z"), true))).toEqual(["c", "a", "z"]);
  });

  it("replaces a known item in place, and takes out one that no longer passes the filters", () => {
    const assigned = { ...list[1]!, assignee: "bob" };
    expect(upsertInboxItem(list, assigned, true)[1]).toBe(assigned);
    expect(ids(upsertInboxItem(list, assigned, false))).toEqual(["c"]);
  });

  it("answers the same list when nothing changes", () => {
    expect(upsertInboxItem(list, make("x", "2026-01-05T09:00:00Z"), false)).toBe(list);
    expect(removeInboxItem(list, "x")).toBe(list);
    expect(ids(removeInboxItem(list, "c"))).toEqual(["a"]);
  });
});

describe("appendInboxPage", () => {
  it("adds the next page without what a live update already brought in", () => {
    const shown = [make("c", "2026-01-05T09:03:00Z")];
    const page = [make("c", "2026-01-05T09:03:00Z"), make("b", "2026-01-05T09:02:00Z")];
    expect(ids(appendInboxPage(shown, page))).toEqual(["c", "b"]);
  });
});
