import type { RunRecord, RunStatus } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import {
  getFilterCounts,
  getRunHistoryRow,
  getRunHistoryRows,
  isRunInFilter,
  toggleComparePick,
} from "./run-history-rows.js";

const usage = { promptTokens: 100, completionTokens: 20, reasoningTokens: 0, costUsd: 0.002, llmCalls: 3 };

function makeRun(
  id: string,
  status: RunStatus,
  startedAt: string | null,
  extra: Partial<RunRecord> = {},
): RunRecord {
  return {
    id,
    agentId: "support-triage",
    agentVersion: 1,
    status,
    query: `query ${id}`,
    result: null,
    usage,
    startedAt,
    finishedAt: null,
    ...extra,
  };
}

describe("isRunInFilter", () => {
  it("groups statuses under the chips", () => {
    expect(isRunInFilter("paused", "active")).toBe(true);
    expect(isRunInFilter("queued", "active")).toBe(true);
    expect(isRunInFilter("interrupted", "failed")).toBe(true);
    expect(isRunInFilter("finished", "failed")).toBe(false);
    expect(isRunInFilter("cancelled", "all")).toBe(true);
  });
});

describe("getRunHistoryRow", () => {
  const now = Date.parse("2025-03-03T12:00:10Z");
  it("takes the duration from start and finish, tokens as prompt plus completion", () => {
    const row = getRunHistoryRow(
      makeRun("a", "finished", "2025-03-03T12:00:00Z", { finishedAt: "2025-03-03T12:00:04.500Z" }),
      now,
    );
    expect(row).toMatchObject({
      durationMs: 4500,
      tokens: 120,
      llmCalls: 3,
      costUsd: 0.002,
      live: false,
      steps: null,
    });
  });
  it("counts a running run's duration up to now", () => {
    expect(getRunHistoryRow(makeRun("b", "running", "2025-03-03T12:00:00Z"), now).durationMs).toBe(10_000);
  });
  it("marks a run approved with an edit or rejected, from the record's decisions", () => {
    const run = (decisions?: RunRecord["decisions"]) =>
      getRunHistoryRow(makeRun("e", "finished", "2025-03-03T12:00:00Z", decisions ? { decisions } : {}), now);
    expect(run({ approve: 1, edit: 2, reject: 0 })).toMatchObject({ edited: 2, rejected: 0 });
    expect(run({ approve: 0, edit: 0, reject: 1 })).toMatchObject({ edited: 0, rejected: 1 });
    expect(run()).toMatchObject({ edited: 0, rejected: 0 });
  });
  it("shows a public chat visitor's rating and comment", () => {
    const rated = makeRun("r", "finished", "2025-03-03T12:00:00Z", {
      rating: { rating: "down", comment: "Wrong order number", ratedAt: "2025-03-03T12:01:00Z" },
    });
    expect(getRunHistoryRow(rated, now)).toMatchObject({
      rating: "down",
      ratingComment: "Wrong order number",
    });
    expect(getRunHistoryRow(makeRun("s", "finished", null), now)).toMatchObject({
      rating: null,
      ratingComment: null,
    });
  });
  it("names the trigger that fired a run", () => {
    const fired = makeRun("t", "running", "2025-03-03T12:00:00Z", {
      trigger: { id: "trg_1", kind: "schedule" },
    });
    expect(getRunHistoryRow(fired, now).trigger).toEqual({ id: "trg_1", kind: "schedule" });
    expect(getRunHistoryRow(makeRun("u", "finished", null), now).trigger).toBeNull();
  });
  it("prefers the server's summary fields", () => {
    const run = { ...makeRun("c", "finished", "2025-03-03T12:00:00Z"), steps: 7, durationMs: 1234 };
    expect(getRunHistoryRow(run, now)).toMatchObject({ steps: 7, durationMs: 1234 });
  });
  it("leaves a queued run's duration unknown", () => {
    expect(
      getRunHistoryRow(makeRun("d", "queued", null, { createdAt: "2025-03-03T12:00:09Z" }), now),
    ).toMatchObject({
      durationMs: null,
      startedAt: "2025-03-03T12:00:09Z",
      live: true,
    });
  });
});

describe("getRunHistoryRows", () => {
  const runs = [
    makeRun("old", "finished", "2025-03-01T10:00:00Z"),
    makeRun("new", "failed", "2025-03-03T10:00:00Z"),
    makeRun("queued", "queued", null, { createdAt: "2025-03-03T11:00:00Z" }),
  ];
  it("lists newest first, queued runs by creation time", () => {
    expect(getRunHistoryRows(runs, { filter: "all", now: 0 }).map((row) => row.id)).toEqual([
      "queued",
      "new",
      "old",
    ]);
  });
  it("filters by status chip", () => {
    expect(getRunHistoryRows(runs, { filter: "failed", now: 0 }).map((row) => row.id)).toEqual(["new"]);
    expect(getFilterCounts(runs)).toEqual({ all: 3, active: 1, finished: 1, failed: 1, cancelled: 0 });
  });
});

describe("toggleComparePick", () => {
  it("keeps the last two picks and unpicks on a second click", () => {
    expect(toggleComparePick([], "a")).toEqual(["a"]);
    expect(toggleComparePick(["a"], "b")).toEqual(["a", "b"]);
    expect(toggleComparePick(["a", "b"], "c")).toEqual(["b", "c"]);
    expect(toggleComparePick(["a", "b"], "a")).toEqual(["b"]);
  });
});
