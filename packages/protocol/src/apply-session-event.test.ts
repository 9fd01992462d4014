import { describe, expect, it } from "vitest";
import { applySessionEvents, createSessionRecord, getTitleFromQuery } from "./apply-session-event.js";
import { SessionEvent, type NewSessionEvent } from "./session-event.js";
import { SessionRecord } from "./session.js";

const usage = (llmCalls: number) => ({
  promptTokens: 10 * llmCalls,
  completionTokens: 2 * llmCalls,
  reasoningTokens: 0,
  costUsd: 0.001 * llmCalls,
  llmCalls,
});

/** Numbers a script of events as the store would, each checked by the schema. */
function log(events: NewSessionEvent[]): SessionEvent[] {
  return events.map((event, index) =>
    SessionEvent.parse({ ...event, sessionId: "ses_1", seq: index + 1, ts: 1_000 + index }),
  );
}

const head = { id: "ses_1", agentId: "helper", agentVersion: 2, createdAt: "2026-01-01T00:00:00.000Z" };

describe("applySessionEvent", () => {
  it("folds turns, tasks, merges and usage, and names the session from its first query", () => {
    const events = log([
      { type: "turn_started", data: { runId: "run_1", turn: 1, query: "Research the Q4 numbers" } },
      {
        type: "task_spawned",
        data: {
          taskId: "task_1",
          runId: "run_t1",
          parentRunId: "run_1",
          name: "Sales",
          mode: "subagent",
          mergeStrategy: "HUMAN_GATED",
          groupId: "group_1",
        },
      },
      {
        type: "turn_ended",
        data: { runId: "run_1", turn: 1, status: "finished", answer: "Started it.", usage: usage(2) },
      },
      { type: "task_update", data: { taskId: "task_1", runId: "run_t1", status: "running" } },
      {
        type: "task_update",
        data: { taskId: "task_1", runId: "run_t1", status: "completed", usage: usage(3) },
      },
      {
        type: "merge_pending",
        data: {
          mergeId: "merge_1",
          name: "q4",
          groupId: "group_1",
          strategy: "HUMAN_GATED",
          tasks: [{ taskId: "task_1", runId: "run_t1", name: "Sales", status: "completed", result: "up" }],
        },
      },
    ]);
    const record = applySessionEvents(createSessionRecord(head), events);
    expect(record).toMatchObject({
      title: "Research the Q4 numbers",
      status: "waiting",
      lastSeq: 6,
      turns: [{ runId: "run_1", turn: 1, status: "finished", answer: "Started it." }],
      tasks: [{ taskId: "task_1", runId: "run_t1", groupId: "group_1", status: "completed" }],
      pendingMerges: [{ mergeId: "merge_1", groupId: "group_1", tasks: [{ taskId: "task_1" }] }],
      usage: { llmCalls: 5, promptTokens: 50 },
      updatedAt: new Date(1_005).toISOString(),
    });
    const decided = applySessionEvents(record, [
      SessionEvent.parse({
        sessionId: "ses_1",
        seq: 7,
        ts: 2_000,
        type: "merge_decided",
        data: { mergeId: "merge_1", decision: "approve", note: "looks right" },
      }),
    ]);
    expect(decided.pendingMerges).toEqual([]);
    expect(decided.status).toBe("idle");
    // the decision stays in the record, with its note, who decided and when
    expect(decided.decidedMerges).toEqual([
      {
        mergeId: "merge_1",
        name: "q4",
        groupId: "group_1",
        strategy: "HUMAN_GATED",
        tasks: [{ taskId: "task_1", runId: "run_t1", name: "Sales", status: "completed", result: "up" }],
        decision: "approve",
        note: "looks right",
        decidedAt: 2_000,
      },
    ]);
    const rejected = applySessionEvents(record, [
      SessionEvent.parse({
        sessionId: "ses_1",
        seq: 7,
        ts: 3_000,
        type: "merge_decided",
        data: { mergeId: "merge_1", decision: "reject", actor: "Ed Editor" },
      }),
    ]);
    expect(rejected.decidedMerges?.[0]).toMatchObject({
      decision: "reject",
      actor: "Ed Editor",
      decidedAt: 3_000,
    });
    expect(rejected.decidedMerges?.[0]).not.toHaveProperty("note");
    expect(rejected.merged ?? []).toEqual([]);
    expect(SessionRecord.parse(rejected).decidedMerges).toHaveLength(1);
  });

  it("is running while a turn runs, waiting while it is paused, closed for good", () => {
    const started = log([
      { type: "turn_started", data: { runId: "run_1", turn: 1, query: "Pay the invoice" } },
      { type: "turn_updated", data: { runId: "run_1", turn: 1, status: "paused" } },
      { type: "turn_updated", data: { runId: "run_1", turn: 1, status: "running" } },
      { type: "session_closed", data: {} },
      { type: "turn_ended", data: { runId: "run_1", turn: 1, status: "cancelled", answer: null } },
    ]);
    const statuses = started.map(
      (_, index) => applySessionEvents(createSessionRecord(head), started.slice(0, index + 1)).status,
    );
    expect(statuses).toEqual(["running", "waiting", "running", "closed", "closed"]);
  });

  it("keeps a given title, ignores events it has seen, and records compaction", () => {
    const events = log([
      { type: "turn_started", data: { runId: "run_1", turn: 1, query: "Hello" } },
      {
        type: "context_compacted",
        data: { throughTurn: 1, method: "rule_based", tokensBefore: 900, tokensAfter: 200 },
      },
    ]);
    const record = applySessionEvents(createSessionRecord({ ...head, title: "Mine" }), events);
    expect(record.title).toBe("Mine");
    expect(record.compactedThroughTurn).toBe(1);
    expect(applySessionEvents(record, events)).toBe(record);
  });
});

describe("getTitleFromQuery", () => {
  it("takes the first line, cut at a word", () => {
    expect(getTitleFromQuery("  Short one\nmore  ")).toBe("Short one");
    const long = getTitleFromQuery(`${"word ".repeat(30)}end`);
    expect(long.length).toBeLessThanOrEqual(81);
    expect(long.endsWith("word…")).toBe(true);
    expect(getTitleFromQuery("   ")).toBe("New chat");
  });
});
