import type { InboxItem, RunEvent, RunRecord, SessionEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { createInboxListener } from "./inbox-notifications.js";
import { getNotificationSummary } from "./notification-body.js";
import { createMergeListener, createNotificationObserver } from "./notification-observer.js";
import type { NotificationData } from "./notify.js";

const run = (extra: Partial<RunRecord> = {}): RunRecord => ({
  id: "run_1",
  agentId: "triage",
  agentVersion: 3,
  status: "running",
  query: "private question",
  result: null,
  usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0, llmCalls: 0 },
  startedAt: null,
  finishedAt: null,
  channel: "production",
  ...extra,
});

const event = (type: string, data: Record<string, unknown>) =>
  ({ runId: "run_1", seq: 9, ts: 1, step: 2, type, data }) as unknown as RunEvent;

function record() {
  const sent: [string, NotificationData][] = [];
  return { sent, notify: (type: string, data: NotificationData) => void sent.push([type, data]) };
}

describe("what notifies", () => {
  it("maps a run's end, failure, budget and pause to their events, with no query, args or answer", () => {
    const { sent, notify } = record();
    let pauses = true;
    const observer = createNotificationObserver({ notify, pauses: () => pauses });
    const observed = {
      record: run(),
      redact: <T>(value: T) => JSON.parse(JSON.stringify(value).replace("sk-123", "[redacted]")) as T,
    };
    observer.onEvent(event("tool_start", { node: "lookup" }), observed);
    observer.onEvent(
      event("pause", {
        reason: "approval_required",
        payload: { tool: "refund", args: { card: "4111" } },
        resumeToken: "t",
      }),
      observed,
    );
    observer.onEvent(
      event("run_finished", { reason: "budget_exhausted", payload: {}, metadata: {} }),
      observed,
    );
    observer.onEvent(
      event("run_failed", { error: { code: "llm_error", message: "key sk-123 refused" } }),
      observed,
    );
    pauses = false;
    observer.onEvent(
      event("pause", { reason: "approval_required", payload: {}, resumeToken: "u" }),
      observed,
    );
    const base = { agentId: "triage", agentVersion: 3, runId: "run_1", channel: "production" };
    expect(sent).toEqual([
      ["pause.created", { ...base, reason: "approval_required", tool: "refund" }],
      ["run.finished", { ...base, reason: "budget_exhausted" }],
      ["budget.exceeded", { ...base, reason: "budget_exhausted" }],
      ["run.failed", { ...base, error: { code: "llm_error", message: "key [redacted] refused" } }],
    ]);
    expect(JSON.stringify(sent)).not.toMatch(/private question|4111/);
  });

  it("never notifies for a test case's runs", () => {
    const { sent, notify } = record();
    const observer = createNotificationObserver({ notify, pauses: () => true });
    observer.onEvent(event("run_finished", { reason: "answer_complete", payload: {}, metadata: {} }), {
      record: run({ purpose: "test" }),
      redact: (value) => value,
    });
    expect(sent).toEqual([]);
  });

  it("notifies each merge a session change appended (merge.pending), linking to the session", () => {
    const { sent, notify } = record();
    const listener = createMergeListener(notify);
    const merge = {
      type: "merge_pending",
      data: { mergeId: "m1", name: "research", strategy: "HUMAN_GATED", tasks: [] },
    };
    listener({
      sessionId: "ses_1",
      agentId: "triage",
      events: [{ type: "turn_started" }, merge] as unknown as SessionEvent[],
    });
    listener({ sessionId: "ses_1", agentId: "triage" });
    expect(sent).toEqual([
      ["merge.pending", { agentId: "triage", sessionId: "ses_1", mergeId: "m1", name: "research" }],
    ]);
  });

  it("passes the inbox's events on, a pause linking to its run and a merge to its session, never args", () => {
    const { sent, notify } = record();
    const listener = createInboxListener(notify);
    const item: InboxItem = {
      itemId: "pause:run_1",
      kind: "pause",
      agentId: "triage",
      agentVersion: 3,
      runId: "run_1",
      reason: "approval_required",
      tool: "refund",
      argsPreview: '{"card":"4111"}',
      startedBy: "trigger:trg_1",
      createdAt: "2026-01-01T00:00:00.000Z",
      dueAt: "2026-01-01T00:10:00.000Z",
      resumeToken: "t",
    };
    listener({
      id: "pause.timed_out:pause:run_1:t",
      type: "pause.timed_out",
      at: "x",
      item,
      decision: "reject",
    });
    listener({
      id: "merge.pending:merge:ses_1:m1:m1",
      type: "merge.pending",
      at: "x",
      item: {
        ...item,
        itemId: "merge:ses_1:m1",
        kind: "merge",
        sessionId: "ses_1",
        mergeId: "m1",
        tool: undefined,
        dueAt: null,
      },
    });
    expect(sent[0]).toEqual([
      "pause.timed_out",
      expect.objectContaining({
        runId: "run_1",
        tool: "refund",
        decision: "reject",
        dueAt: item.dueAt,
        startedBy: "trigger:trg_1",
      }),
    ]);
    expect(sent[1]![1]).toMatchObject({ sessionId: "ses_1", turnRunId: "run_1", mergeId: "m1" });
    expect(sent[1]![1].runId).toBeUndefined();
    expect(JSON.stringify(sent)).not.toContain("4111");
  });

  it("says a guard's pause with the guard's sentence, not 'before' the tool whose result it holds", () => {
    const { sent, notify } = record();
    const message =
      "Guard no-pii found email (1) in lookup's result. Approve to let it through, reject to stop it.";
    const item: InboxItem = {
      itemId: "pause:run_1",
      kind: "pause",
      agentId: "triage",
      agentVersion: 3,
      runId: "run_1",
      reason: "guard",
      tool: "lookup",
      message,
      startedBy: "local",
      createdAt: "2026-01-01T00:00:00.000Z",
      resumeToken: "t",
    };
    createInboxListener(notify)({ id: "pause.created:pause:run_1:t", type: "pause.created", at: "x", item });
    const [[type, data]] = sent as [[string, NotificationData]];
    expect(data).toMatchObject({ reason: "guard", tool: "lookup", message });
    expect(getNotificationSummary("pause.created", data)).toBe(
      `Agent triage is waiting for a person: a guard held it (${message})`,
    );
    expect(getNotificationSummary("pause.due_soon", data)).toBe(
      "Agent triage is still waiting for a person; it is decided soon.",
    );
    expect(type).toBe("pause.created");
    // Another pause's message stays in the inbox: it may quote what the model asked.
    createInboxListener(notify)({
      id: "pause.created:pause:run_2:t",
      type: "pause.created",
      at: "x",
      item: { ...item, reason: "await_input", message: "Which account?" },
    });
    expect(sent[1]![1]).not.toHaveProperty("message");
    expect(getNotificationSummary("pause.created", sent[1]![1])).toBe(
      "Agent triage is waiting for a person before lookup.",
    );
  });
});
