import { applySessionEvents, createSessionRecord, type SessionEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { createSessionEventFactory, makeTaskSessionLog } from "../testing/make-session-events.js";
import type { ChatGroupReport } from "./chat-types.js";
import { getChatTray } from "./get-chat-tray.js";

const head = {
  id: "ses_test1",
  agentId: "research-agent",
  agentVersion: 1,
  createdAt: "2026-01-05T09:00:00Z",
};

/** The record as the server and the chat fold it, and the group reports the chat keeps from the log. */
function fold(events: readonly SessionEvent[]) {
  const record = applySessionEvents(createSessionRecord(head), events);
  const reports: ChatGroupReport[] = events.flatMap((event) =>
    event.type === "task_group_report" ? [{ seq: event.seq, ts: event.ts, ...event.data }] : [],
  );
  return { record, reports };
}

describe("getChatTray", () => {
  it("groups the folded session's tasks with their progress, report and turn, and lists its pending merge", () => {
    const { record, reports } = fold(makeTaskSessionLog());
    const tray = getChatTray(record, reports);

    expect(tray.total).toBe(3);
    expect(tray.active).toBe(0);
    expect(tray.groups).toHaveLength(1);
    const [group] = tray.groups;
    expect(group).toMatchObject({ groupId: "g_research", name: "research", done: 2, total: 2 });
    expect(group!.report).toMatchObject({ report: "all", mergeStrategy: "HUMAN_GATED" });
    expect(group!.tasks.map((task) => [task.name, task.status, task.turn])).toEqual([
      ["competitors", "completed", 1],
      ["pricing", "failed", 1],
    ]);
    expect(group!.tasks[1]!.error?.message).toBe("pricing API timed out");
    expect(tray.loose.map((task) => [task.name, task.status, task.mergeStrategy])).toEqual([
      ["news", "completed", "APPEND"],
    ]);
    expect(tray.merges).toHaveLength(1);
    expect(tray.merges[0]).toMatchObject({ mergeId: "m_research", strategy: "HUMAN_GATED" });
    expect(tray.merges[0]!.tasks.map((task) => task.name)).toEqual(["competitors", "pricing"]);
    expect(tray.orphanReports).toEqual([]);
  });

  it("counts tasks still going and drops a merge once it is decided", () => {
    const log = makeTaskSessionLog();
    // before the group finished: t1 running, t2 queued
    const early = fold(log.slice(0, 6));
    const tray = getChatTray(early.record, early.reports);
    expect(tray.active).toBe(2);
    expect(tray.groups[0]).toMatchObject({ name: "g_research", done: 0, total: 2, report: null });

    const events = createSessionEventFactory("ses_test1", {
      seq: log.length + 1,
      ts: Date.UTC(2026, 0, 5, 10),
    });
    const decided = fold([
      ...log,
      events.next({
        type: "merge_decided",
        data: { mergeId: "m_research", decision: "approve", note: "ok" },
      }),
    ]);
    expect(getChatTray(decided.record, decided.reports).merges).toEqual([]);
  });

  it("keeps a decided merge with its decision, note and who decided, and marks its tasks", () => {
    const log = makeTaskSessionLog();
    const events = createSessionEventFactory("ses_test1", {
      seq: log.length + 1,
      ts: Date.UTC(2026, 0, 5, 10),
    });
    const decision = (value: "approve" | "reject") =>
      fold([
        ...log,
        events.next({
          type: "merge_decided",
          data: { mergeId: "m_research", decision: value, note: "not these", actor: "Ed Editor" },
        }),
      ]);
    const rejected = decision("reject");
    const tray = getChatTray(rejected.record, rejected.reports);
    expect(tray.decided).toEqual([
      expect.objectContaining({
        mergeId: "m_research",
        name: expect.any(String),
        decision: "reject",
        note: "not these",
        actor: "Ed Editor",
      }),
    ]);
    // the group's tasks say how their results were decided; the loose APPEND task was never held
    expect(tray.groups[0]!.tasks.map((task) => [task.name, task.status, task.mergeDecision])).toEqual([
      ["competitors", "completed", "reject"],
      ["pricing", "failed", "reject"],
    ]);
    expect(tray.loose[0]!.mergeDecision).toBeUndefined();
    const approved = decision("approve");
    expect(getChatTray(approved.record, approved.reports).groups[0]!.tasks[0]!.mergeDecision).toBe("approve");
  });

  it("keeps the latest report of a group, and shows one whose tasks it does not hold", () => {
    const { record } = fold(makeTaskSessionLog());
    const report = (seq: number, groupId: string, report: "all" | "any"): ChatGroupReport => ({
      seq,
      ts: seq,
      groupId,
      name: groupId,
      report,
      mergeStrategy: "APPEND",
      tasks: [],
    });
    const tray = getChatTray(record, [
      report(20, "g_research", "any"),
      report(10, "g_research", "all"),
      report(30, "g_other", "all"),
    ]);
    expect(tray.groups[0]!.report?.seq).toBe(20);
    expect(tray.orphanReports.map((orphan) => orphan.groupId)).toEqual(["g_other"]);
  });

  it("is empty without a session", () => {
    expect(getChatTray(null, [])).toMatchObject({ groups: [], loose: [], merges: [], total: 0 });
  });
});
