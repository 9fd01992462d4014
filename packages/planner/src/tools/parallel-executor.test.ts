import { PlannerOptions, type RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Cancellation } from "../util/cancellation.js";
import { fromDefinition } from "../catalog/catalog.js";
import { executeParallel } from "./parallel-executor.js";
import { RunEventEmitter } from "../run/run-event-emitter.js";
import { createRunState } from "../run/run-state.js";
import { createVirtualTime } from "../testing/run-harness.js";
import { defineTool } from "../catalog/tool.js";
import type { ToolRuntime } from "./tool-runtime.js";

const double = fromDefinition(
  defineTool({
    name: "double",
    desc: "Doubles",
    args: z.object({ n: z.number() }),
    out: z.object({ v: z.number() }),
    retry: { maxAttempts: 1 },
    run: ({ n }, context) =>
      n < 0 ? context.pause("await_input") : n === 0 ? Promise.reject(new Error("zero")) : { v: n * 2 },
  }),
);
const sum = fromDefinition(
  defineTool({
    name: "sum",
    desc: "Sums",
    args: z.object({ results: z.array(z.object({ v: z.number() })), expect: z.number() }),
    out: z.object({ total: z.number() }),
    run: ({ results }) => ({ total: results.reduce((total, item) => total + item.v, 0) }),
  }),
);

function runtime(events: RunEvent[]): ToolRuntime {
  const time = createVirtualTime(0);
  const state = createRunState({ runId: "r", query: "q", startedAt: 0 });
  return {
    runId: "r",
    query: "q",
    toolContext: {},
    cancellation: new Cancellation(),
    events: new RunEventEmitter({
      state,
      sink: (event) => events.push(event),
      clock: time.clock,
      secrets: new Set(),
      previewChars: 200,
    }),
    clock: time.clock,
    random: () => 0,
    sleep: time.sleep,
    options: PlannerOptions.parse({}),
    secrets: new Set(),
    observations: { last: undefined, byTool: {} },
    reportUsage: () => undefined,
  };
}

const branches = (...values: number[]) => values.map((n) => ({ tool: double, args: { n } }));

describe("executeParallel", () => {
  it("runs branches then the join with injected sources", async () => {
    const events: RunEvent[] = [];
    const outcome = await executeParallel(runtime(events), {
      parallelId: "p1",
      step: 2,
      branches: branches(1, 2, 3),
      join: { tool: sum, args: {}, inject: { results: "$results", expect: "$expect" } },
      limit: 2,
      groupId: "g",
    });
    expect(outcome).toMatchObject({
      successCount: 3,
      failureCount: 0,
      hops: 4,
      join: { node: "sum", observation: { total: 12 } },
    });
    expect(outcome.observation).toMatchObject({
      success_count: 3,
      failure_count: 0,
      join: { observation: { total: 12 } },
    });
    expect(events[0]).toMatchObject({
      type: "parallel_start",
      step: 2,
      data: { parallelId: "p1", maxParallel: 2, groupId: "g", join: { node: "sum" } },
    });
    expect(events.at(-1)).toMatchObject({
      type: "parallel_end",
      data: { successCount: 3, join: { status: "ok", node: "sum" } },
    });
    expect(
      events
        .filter((event) => event.type === "tool_start")
        .map((event) => (event.data as { branch?: number; join?: boolean }).branch ?? "join"),
    ).toEqual([0, 1, 2, "join"]);
  });

  it("skips the join on branch failures and turns a branch pause into a failure", async () => {
    const events: RunEvent[] = [];
    const outcome = await executeParallel(runtime(events), {
      parallelId: "p2",
      step: 0,
      branches: branches(1, 0, -1),
      join: { tool: sum, args: {}, inject: { results: "$results", expect: "$expect" } },
      limit: 3,
    });
    expect(outcome.branches.map((branch) => branch.failure?.error_code ?? "ok")).toEqual([
      "ok",
      "tool_error",
      "pause_in_parallel",
    ]);
    expect(outcome).toMatchObject({
      failureCount: 2,
      hops: 3,
      join: { node: "sum", skipped: "branch_failures" },
    });
  });

  it("records unusable joins and joins with invalid args without running them", async () => {
    const unusable = await executeParallel(runtime([]), {
      parallelId: "p",
      step: 0,
      branches: branches(1),
      join: { node: "ghost", unusable: "unknown_tool" },
      limit: 1,
    });
    expect(unusable).toMatchObject({ hops: 1, join: { node: "ghost", skipped: "unknown_tool" } });
    const invalid = await executeParallel(runtime([]), {
      parallelId: "p",
      step: 0,
      branches: branches(1),
      join: { tool: sum, args: {}, inject: { results: "$expect" } },
      limit: 1,
    });
    expect(invalid).toMatchObject({ hops: 1, join: { failure: { error_code: "invalid_join_args" } } });
    const none = await executeParallel(runtime([]), {
      parallelId: "p",
      step: 0,
      branches: branches(1),
      limit: 1,
    });
    expect(none.join).toBeUndefined();
    expect(none.observation).toEqual({
      branches: [{ node: "double", args: { n: 1 }, observation: { v: 2 } }],
      success_count: 1,
      failure_count: 0,
    });
  });
});
