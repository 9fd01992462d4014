import { describe, expect, it } from "vitest";
import { ListRunsQuery, ResumeConflictDetails, RunRecord } from "./api.js";

describe("ListRunsQuery", () => {
  it("reads a comma list of statuses, trimmed and without repeats, and a limit with its default", () => {
    expect(ListRunsQuery.parse({ agentId: "a", status: "finished, failed,finished" })).toEqual({
      agentId: "a",
      status: ["finished", "failed"],
      limit: 100,
      purpose: "run",
    });
    expect(ListRunsQuery.parse({ limit: "5" })).toEqual({ limit: 5, purpose: "run" });
    expect(ListRunsQuery.parse({ purpose: "test" }).purpose).toBe("test");
    expect(ListRunsQuery.safeParse({ purpose: "tests" }).success).toBe(false);
  });

  it("names an unknown status and the known ones", () => {
    const parsed = ListRunsQuery.safeParse({ status: "finished,done" });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(
      'unknown run status "done": use a comma list of queued, running, paused, finished, failed, cancelled, interrupted',
    );
    expect(ListRunsQuery.safeParse({ status: "" }).success).toBe(false);
  });

  it("refuses a limit out of range and unknown parameters", () => {
    expect(ListRunsQuery.safeParse({ limit: "0" }).success).toBe(false);
    expect(ListRunsQuery.safeParse({ limit: "1001" }).success).toBe(false);
    expect(ListRunsQuery.safeParse({ limit: "2.5" }).success).toBe(false);
    expect(ListRunsQuery.safeParse({ sort: "asc" }).success).toBe(false);
  });
});

describe("RunRecord", () => {
  const run = {
    id: "run_1",
    agentId: "a",
    agentVersion: 1,
    status: "finished",
    query: "q",
    result: null,
    usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0, llmCalls: 0 },
    startedAt: null,
    finishedAt: null,
  };

  it("takes the optional history summary, and a record without it", () => {
    expect(RunRecord.parse({ ...run, steps: 3, durationMs: 12.5 })).toMatchObject({ steps: 3 });
    expect(RunRecord.safeParse(run).success).toBe(true);
    expect(RunRecord.safeParse({ ...run, steps: 1.5 }).success).toBe(false);
  });

  it("is what a resume conflict's details may carry", () => {
    const details = { reason: "already_answered", status: "running", run: { ...run, status: "running" } };
    expect(ResumeConflictDetails.parse(details)).toMatchObject({ reason: "already_answered" });
    expect(ResumeConflictDetails.safeParse({ reason: "lost", status: "running" }).success).toBe(false);
  });
});
