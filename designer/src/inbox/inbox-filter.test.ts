import type { InboxItem } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_INBOX_FILTER,
  getInboxQuery,
  isFiltered,
  isInInboxFilter,
  isSnoozed,
} from "./inbox-filter.js";

const now = Date.parse("2026-01-05T10:00:00Z");
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

describe("getInboxQuery", () => {
  it("asks for open items by default, and only for the filters that are set", () => {
    expect(getInboxQuery(DEFAULT_INBOX_FILTER, { me: "alice" })).toEqual({ state: "open" });
    expect(
      getInboxQuery(
        { agentId: "mailer", kind: "merge", assignee: "none", state: "all" },
        { me: "alice", cursor: "c2", limit: 50 },
      ),
    ).toEqual({ agentId: "mailer", kind: "merge", assignee: "none", state: "all", cursor: "c2", limit: 50 });
  });

  it("sends 'me' as the signed-in key's name, and no assignee while that name is unknown", () => {
    const mine = { ...DEFAULT_INBOX_FILTER, assignee: "me" };
    expect(getInboxQuery(mine, { me: "alice" })).toEqual({ state: "open", assignee: "alice" });
    expect(getInboxQuery(mine, { me: null })).toEqual({ state: "open" });
    expect(getInboxQuery({ ...mine, assignee: "bob" }, { me: "alice", cursor: null })).toEqual({
      state: "open",
      assignee: "bob",
    });
  });
});

describe("isInInboxFilter", () => {
  const check = (patch: Partial<InboxItem>, filter: Partial<typeof DEFAULT_INBOX_FILTER> = {}) =>
    isInInboxFilter({ ...item, ...patch }, { ...DEFAULT_INBOX_FILTER, ...filter }, { me: "alice", now });

  it("keeps what the filters ask for, as the server would list it", () => {
    expect(check({})).toBe(true);
    expect(check({}, { agentId: "other" })).toBe(false);
    expect(check({}, { kind: "merge" })).toBe(false);
    expect(check({ kind: "merge" }, { kind: "merge" })).toBe(true);
  });

  it("reads the assignee filter: me, unassigned, or a name", () => {
    expect(check({ assignee: "alice" }, { assignee: "me" })).toBe(true);
    expect(check({ assignee: "bob" }, { assignee: "me" })).toBe(false);
    expect(check({ assignee: null }, { assignee: "none" })).toBe(true);
    expect(check({ assignee: "bob" }, { assignee: "none" })).toBe(false);
    expect(check({ assignee: "bob" }, { assignee: "bob" })).toBe(true);
  });

  it("splits open and snoozed items by the snooze's end, and 'all' keeps both", () => {
    const snoozed = { snoozedUntil: "2026-01-05T11:00:00Z" };
    const woken = { snoozedUntil: "2026-01-05T09:30:00Z" };
    expect(check(snoozed)).toBe(false);
    expect(check(snoozed, { state: "snoozed" })).toBe(true);
    expect(check(woken)).toBe(true);
    expect(check(woken, { state: "snoozed" })).toBe(false);
    expect(check(snoozed, { state: "all" })).toBe(true);
    expect(isSnoozed({ snoozedUntil: null }, now)).toBe(false);
  });

  it("tells a filtered view from the default one", () => {
    expect(isFiltered(DEFAULT_INBOX_FILTER)).toBe(false);
    expect(isFiltered({ ...DEFAULT_INBOX_FILTER, state: "all" })).toBe(true);
    expect(isFiltered({ ...DEFAULT_INBOX_FILTER, assignee: "me" })).toBe(true);
  });
});
