import type { ShadowCase, ShadowReportSummary } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { getShadowCaseRow, getShadowSummary } from "./get-shadow-summary.js";

const usage = (promptTokens: number, costUsd: number) => ({
  promptTokens,
  completionTokens: 0,
  reasoningTokens: 0,
  costUsd,
  llmCalls: 1,
});

const report: ShadowReportSummary = {
  id: "sh_1",
  agentId: "a",
  candidateVersion: 12,
  baseline: { channel: "production", version: 9 },
  createdAt: "2026-01-01T00:00:00Z",
  createdBy: "ann",
  note: null,
  totals: {
    cases: 20,
    sameTools: 18,
    sameAnswer: 15,
    notRecorded: 2,
    baseline: { usage: usage(1000, 0.01), durationMs: 4000, failed: 0 },
    candidate: { usage: usage(1200, 0.012), durationMs: 3000, failed: 1 },
  },
};

describe("getShadowSummary", () => {
  it("says what was compared, how much agreed, and each figure baseline against candidate", () => {
    const view = getShadowSummary(report);
    expect(view.title).toBe("v12 against production (v9) · 20 cases");
    expect(view.line).toBe("18 of 20 same tools · 15 same answers · 2 calls not recorded");
    expect(view.figures[0]).toEqual({
      label: "Tokens",
      baseline: "1k",
      candidate: "1.2k",
      delta: "+200",
      tone: "worse",
    });
    expect(view.figures[2]).toMatchObject({ label: "Time", delta: "-1.0 s", tone: "better" });
    expect(view.figures[3]).toMatchObject({ label: "Failed", baseline: "0", candidate: "1" });
  });

  it("says when there was nothing to replay", () => {
    const empty = getShadowSummary({
      ...report,
      baseline: { channel: "production", version: null },
      note: "production served no ended runs yet",
      totals: { ...report.totals, cases: 0, sameTools: 0, sameAnswer: 0, notRecorded: 0 },
    });
    expect(empty).toMatchObject({
      title: "v12 against production (no release) · 0 cases",
      line: "Nothing to replay",
      note: "production served no ended runs yet",
    });
  });
});

describe("getShadowCaseRow", () => {
  const side = (tools: string[], answer: string | null) => ({
    version: 1,
    status: "finished",
    answer,
    error: answer === null ? { code: "not_recorded", message: "m" } : null,
    tools: tools.map((tool) => ({ tool, args: {} })),
    usage: usage(1, 0),
    durationMs: 1,
  });
  it("says where the tool paths part, and each side's answer", () => {
    const entry: ShadowCase = {
      runId: "run_1",
      sessionId: null,
      turn: null,
      query: "q",
      baseline: side(["lookup", "check"], "ok"),
      candidate: side(["lookup", "search"], null),
      sameTools: false,
      partsAt: 1,
      sameAnswer: false,
      notRecorded: 1,
    };
    expect(getShadowCaseRow(entry)).toMatchObject({
      path: "parts at call 2: check → search",
      baselineAnswer: "ok",
      candidateAnswer: "(not_recorded)",
    });
    expect(getShadowCaseRow({ ...entry, sameTools: true, partsAt: null }).path).toBe("same tools");
  });
});
