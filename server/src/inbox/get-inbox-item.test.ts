import type { RunRecord } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { ARGS_PREVIEW_CHARS, getArgsPreview, getPauseItem, getStartedBy } from "./get-inbox-item.js";

const run = (extra: Partial<RunRecord> = {}): RunRecord => ({
  id: "run_1",
  agentId: "payments",
  agentVersion: 2,
  status: "paused",
  query: "q",
  result: null,
  usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0, llmCalls: 0 },
  startedAt: "2026-12-01T09:00:00.000Z",
  finishedAt: null,
  pause: {
    reason: "approval_required",
    payload: { tool: "refund", args: { order: "A-1" } },
    resumeToken: "tok",
    pausedAt: "2026-12-01T09:00:05.000Z",
  },
  ...extra,
});

describe("who started a run, as the inbox says it", () => {
  it("names a trigger, a public chat's visitor, a key, a task's turn, or the local user", () => {
    expect(getStartedBy(run({ trigger: { id: "trg_7", kind: "schedule" }, startedBy: "ops" }))).toBe(
      "trigger:trg_7",
    );
    expect(getStartedBy(run({ publicId: "pub_9", startedBy: "ops" }))).toBe("public:pub_9");
    expect(getStartedBy(run({ startedBy: "ops" }))).toBe("ops");
    const turn = run({ id: "run_turn", publicId: "pub_9" });
    expect(getStartedBy(run({ kind: "task", parentRunId: "run_turn" }), turn)).toBe("public:pub_9");
    expect(getStartedBy(run())).toBe("local");
  });
});

describe("a paused run as an inbox item", () => {
  it("says what waits, since when, and until when", () => {
    expect(getPauseItem(run({ channel: "production", sessionId: "ses_1" }), {})).toEqual({
      itemId: "pause:run_1",
      kind: "pause",
      agentId: "payments",
      agentVersion: 2,
      channel: "production",
      runId: "run_1",
      sessionId: "ses_1",
      reason: "approval_required",
      tool: "refund",
      argsPreview: '{"order":"A-1"}',
      startedBy: "local",
      createdAt: "2026-12-01T09:00:05.000Z",
      assignee: null,
      snoozedUntil: null,
      dueAt: null,
      resumeToken: "tok",
    });
  });

  it("says a guard's pause in its message, with the tool whose result it holds and no args", () => {
    const message =
      "Guard no-pii found email (1) in lookup's result. Approve to let lookup's result through as it is, reject to stop it.";
    const item = getPauseItem(
      run({
        pause: {
          reason: "guard",
          payload: {
            kind: "guard",
            guard: "no-pii",
            on: "tool_result",
            tool: "lookup",
            findings: [{ kind: "email", count: 1 }],
            message,
          },
          resumeToken: "tok",
          pausedAt: "2026-12-01T09:00:05.000Z",
        },
      }),
      {},
    );
    expect(item).toMatchObject({ reason: "guard", tool: "lookup", message });
    expect(item).not.toHaveProperty("argsPreview");
    const long = getPauseItem(run({ pause: { ...run().pause!, payload: { message: "x".repeat(900) } } }), {});
    expect(long?.message).toHaveLength(500);
  });

  it("is nothing for a run that does not wait, or a test case's run", () => {
    expect(getPauseItem(run({ status: "queued" }), {})).toBeUndefined();
    expect(getPauseItem(run({ pause: null }), {})).toBeUndefined();
    expect(getPauseItem(run({ purpose: "test" }), {})).toBeUndefined();
  });

  it("bounds the arguments it shows", () => {
    const preview = getArgsPreview({ note: "x".repeat(2 * ARGS_PREVIEW_CHARS) })!;
    expect(preview).toHaveLength(ARGS_PREVIEW_CHARS);
    expect(preview.endsWith("…")).toBe(true);
  });
});
