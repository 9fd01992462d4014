import { describe, expect, it } from "vitest";
import { makeRunRecord } from "../../testing/fake-run-api.js";
import { sortRuns, upsertRun } from "./upsert-run.js";

const run = (id: string, createdAt?: string, status: "queued" | "finished" = "queued") =>
  makeRunRecord({ id, status, ...(createdAt ? { createdAt } : {}) });

describe("upsertRun", () => {
  it("adds a new run, replaces a known one, keeps newest first", () => {
    const runs = [run("b", "2025-01-02"), run("a", "2025-01-01")];
    expect(upsertRun(runs, run("c", "2025-01-03")).map((item) => item.id)).toEqual(["c", "b", "a"]);
    const replaced = upsertRun(runs, run("a", "2025-01-01", "finished"));
    expect(replaced.map((item) => `${item.id}:${item.status}`)).toEqual(["b:queued", "a:finished"]);
    expect(runs[1]?.status).toBe("queued");
  });

  it("drops a run that leaves the status filter, and ignores one that never passed it", () => {
    const runs = [run("a", "2025-01-01", "finished")];
    expect(upsertRun(runs, run("a", "2025-01-01", "queued"), { statuses: ["finished"] })).toEqual([]);
    expect(upsertRun(runs, run("b", "2025-01-02", "queued"), { statuses: ["finished"] })).toBe(runs);
  });

  it("keeps test cases' runs out unless test runs are shown", () => {
    const runs = [run("a", "2025-01-01")];
    const test = { ...run("t", "2025-01-02", "queued"), purpose: "test" as const };
    expect(upsertRun(runs, test)).toBe(runs);
    expect(upsertRun(runs, test, { showTestRuns: true }).map((item) => item.id)).toEqual(["t", "a"]);
    // an open test run that is updated does not creep back into a list that hides them
    expect(upsertRun([test, ...runs], { ...test, status: "paused" })).toEqual(runs);
  });

  it("under a rating filter, holds only runs a visitor rated so", () => {
    const rated = (id: string, rating: "up" | "down") => ({
      ...run(id, "2025-01-02", "finished"),
      rating: { rating, comment: null, ratedAt: "2025-01-02T00:00:00Z" },
    });
    const runs = [rated("a", "down")];
    expect(upsertRun(runs, run("b", "2025-01-03", "finished"), { rating: "down" })).toBe(runs);
    expect(upsertRun(runs, rated("c", "up"), { rating: "down" })).toBe(runs);
    // same time: the newcomer goes first
    expect(upsertRun(runs, rated("d", "down"), { rating: "down" }).map((item) => item.id)).toEqual([
      "d",
      "a",
    ]);
    // rated again, the other way: it leaves the list
    expect(upsertRun(runs, rated("a", "up"), { rating: "down" })).toEqual([]);
  });

  it("under a trigger filter, holds only the runs that trigger fired", () => {
    const fired = (id: string, trigger: string) => ({
      ...run(id, "2025-01-02", "queued"),
      trigger: { id: trigger, kind: "schedule" as const },
    });
    const runs = [fired("a", "trg_1")];
    expect(upsertRun(runs, run("b", "2025-01-03", "queued"), { trigger: "trg_1" })).toBe(runs);
    expect(upsertRun(runs, fired("c", "trg_2"), { trigger: "trg_1" })).toBe(runs);
    expect(upsertRun(runs, fired("d", "trg_1"), { trigger: "trg_1" }).map((item) => item.id)).toEqual([
      "d",
      "a",
    ]);
    expect(upsertRun(runs, run("e", "2025-01-03", "queued")).map((item) => item.id)).toEqual(["e", "a"]);
  });

  it("puts a run that tells no time first", () => {
    expect(sortRuns([run("a", "2025-01-01"), run("new")]).map((item) => item.id)).toEqual(["new", "a"]);
  });
});
