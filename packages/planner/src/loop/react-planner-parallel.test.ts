import type { PlannerFinishResult } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCatalog } from "../catalog/catalog.js";
import type { PlannerView } from "../run/planner-view.js";
import { ReactPlanner } from "./react-planner.js";
import { loadExampleAgent } from "../testing/load-example-agent.js";
import { answer, call, createEventLog, createScriptedPlanner } from "../testing/run-harness.js";
import { ScriptedClient } from "../testing/scripted-client.js";
import { defineTool } from "../catalog/tool.js";

function finished(result: Awaited<ReturnType<ReactPlanner["run"]>>): PlannerFinishResult {
  if (result.kind !== "finish") throw new Error(`expected a finish, got a pause (${result.reason})`);
  return result;
}

const research = loadExampleAgent("sharded-research");
const shards = [
  { node: "search_web", args: { topic: "solar" } },
  { node: "search_papers", args: { topic: "solar" } },
  { node: "search_news", args: { topic: "solar" } },
];
const parallel = (args: Record<string, unknown>) => ({ next_node: "parallel", args });

/** Lets other queued work run: enough for concurrent branches to overlap, without real time. */
const yieldTicks = async (ticks: number) => {
  for (let tick = 0; tick < ticks; tick += 1) await new Promise<void>((resolve) => setImmediate(resolve));
};

function concurrencyProbe() {
  const probe = { active: 0, max: 0, calls: 0 };
  const tool = defineTool({
    name: "work",
    desc: "A unit of work",
    args: z.object({ id: z.number() }),
    out: z.object({ id: z.number() }),
    run: async ({ id }) => {
      probe.calls += 1;
      probe.active += 1;
      probe.max = Math.max(probe.max, probe.active);
      await yieldTicks(3);
      probe.active -= 1;
      return { id };
    },
  });
  return { probe, tool };
}

describe("ReactPlanner: parallel fan-out", () => {
  it("runs the group's join when the LLM omits it, injecting $results and $expect", async () => {
    const { planner, client } = createScriptedPlanner(research, [
      parallel({ steps: shards }),
      answer("brief"),
    ]);
    const log = createEventLog();
    finished(await planner.run("solar", { onEvent: log.onEvent }));
    const observed = JSON.parse(client.calls[1]?.messages.at(-1)?.content ?? "") as {
      observation: {
        join: { node: string; observation: { shards: number; merged: { source: string }[] } };
        success_count: number;
      };
    };
    expect(observed.observation.success_count).toBe(3);
    expect(observed.observation.join.node).toBe("merge_results");
    expect(observed.observation.join.observation.shards).toBe(3);
    expect(observed.observation.join.observation.merged.map((item) => item.source)).toEqual([
      "web",
      "papers",
      "news",
    ]);
    expect(log.ofType("parallel_start")[0]?.data).toMatchObject({
      maxParallel: 3,
      groupId: "sources",
      join: { node: "merge_results" },
    });
    expect(log.ofType("parallel_end")[0]?.data).toMatchObject({
      successCount: 3,
      failureCount: 0,
      join: { status: "ok", node: "merge_results" },
    });
    const joinStart = log.ofType("tool_start").find((event) => event.data.join === true);
    expect(joinStart?.data).toMatchObject({ tool: "merge_results", parallelId: "parallel-0" });
    const view = client.calls[1]?.plannerView as PlannerView;
    expect(view.steps[0]?.branches?.map((branch) => branch.node)).toEqual([
      "search_web",
      "search_papers",
      "search_news",
    ]);
    expect(view.steps[0]?.join?.node).toBe("merge_results");
  });

  it("skips the join with branch_failures when one branch fails, and returns every branch result", async () => {
    const failingNews = {
      ...research,
      tools: research.tools.map((tool) =>
        tool.name === "search_news"
          ? {
              ...tool,
              retry: { maxAttempts: 1, backoffMs: 0, maxBackoffMs: 0 },
              impl: { kind: "mock" as const, output: {}, failFirst: 9, failMessage: "news API down" },
            }
          : tool,
      ),
    };
    const { planner, client } = createScriptedPlanner(failingNews, [
      parallel({
        steps: shards,
        join: { node: "merge_results", inject: { results: "$results", expect: "$expect" } },
      }),
      answer("partial brief"),
    ]);
    const log = createEventLog();
    const result = finished(await planner.run("solar", { onEvent: log.onEvent }));
    expect(result.reason).toBe("answer_complete");
    const observed = JSON.parse(client.calls[1]?.messages.at(-1)?.content ?? "") as {
      observation: {
        branches: { node: string; observation?: unknown; failure?: { message: string } }[];
        join: unknown;
        failure_count: number;
      };
    };
    expect(observed.observation.failure_count).toBe(1);
    expect(observed.observation.join).toEqual({
      status: "skipped",
      node: "merge_results",
      skipped: "branch_failures",
    });
    expect(observed.observation.branches[0]?.observation).toMatchObject({ source: "web" });
    expect(observed.observation.branches[2]?.failure?.message).toBe("news API down");
    expect(log.ofType("parallel_end")[0]?.data).toMatchObject({
      successCount: 2,
      failureCount: 1,
      join: { status: "skipped", reason: "branch_failures" },
    });
    expect(log.ofType("tool_start").some((event) => event.data.tool === "merge_results")).toBe(false);
  });

  it("sends every branch result back to the LLM when there is no join", async () => {
    const { probe, tool } = concurrencyProbe();
    const client = new ScriptedClient([
      parallel({ steps: [1, 2].map((id) => ({ node: "work", args: { id } })) }),
      answer("ok"),
    ]);
    const planner = new ReactPlanner({ llm: client, catalog: buildCatalog({ tools: [tool] }) });
    const log = createEventLog();
    finished(await planner.run("x", { onEvent: log.onEvent }));
    const observed = JSON.parse(client.calls[1]?.messages.at(-1)?.content ?? "") as {
      observation: Record<string, unknown>;
    };
    expect(observed.observation).toEqual({
      branches: [
        { node: "work", args: { id: 1 }, observation: { id: 1 } },
        { node: "work", args: { id: 2 }, observation: { id: 2 } },
      ],
      success_count: 2,
      failure_count: 0,
    });
    expect(log.ofType("parallel_end")[0]?.data.join).toEqual({ status: "none" });
    expect(probe.calls).toBe(2);
  });

  it("keeps branch results in plan order whatever order they finish in", async () => {
    const slow = defineTool({
      name: "slow",
      desc: "Takes a while",
      args: z.object({ ticks: z.number() }),
      out: z.object({ ticks: z.number() }),
      run: async ({ ticks }) => {
        await yieldTicks(ticks);
        return { ticks };
      },
    });
    const seen: unknown[] = [];
    const join = defineTool({
      name: "collect",
      desc: "Collects",
      args: z.object({
        results: z.array(z.unknown()),
        ok: z.number(),
        failed: z.number(),
        all: z.array(z.unknown()),
        failures: z.array(z.unknown()),
      }),
      out: z.object({ n: z.number() }),
      run: (args) => {
        seen.push(args);
        return { n: args.results.length };
      },
    });
    const client = new ScriptedClient([
      parallel({
        steps: [
          { node: "slow", args: { ticks: 6 } },
          { node: "slow", args: { ticks: 1 } },
        ],
        join: {
          node: "collect",
          inject: {
            results: "$results",
            ok: "$success_count",
            failed: "$failure_count",
            all: "$branches",
            failures: "$failures",
          },
        },
      }),
      answer("ok"),
    ]);
    const planner = new ReactPlanner({ llm: client, catalog: buildCatalog({ tools: [slow, join] }) });
    const log = createEventLog();
    finished(await planner.run("x", { onEvent: log.onEvent }));
    expect(log.ofType("tool_end").map((event) => event.data.branch ?? "join")).toEqual([1, 0, "join"]);
    expect(seen).toEqual([
      {
        results: [{ ticks: 6 }, { ticks: 1 }],
        ok: 2,
        failed: 0,
        all: [
          { node: "slow", args: { ticks: 6 }, observation: { ticks: 6 } },
          { node: "slow", args: { ticks: 1 }, observation: { ticks: 1 } },
        ],
        failures: [],
      },
    ]);
  });

  it("records a join whose args fail validation, without failing the run", async () => {
    const { planner, client } = createScriptedPlanner(research, [
      parallel({ steps: shards, join: { node: "merge_results", inject: { results: "$success_count" } } }),
      answer("ok"),
    ]);
    const log = createEventLog();
    expect(finished(await planner.run("solar", { onEvent: log.onEvent })).reason).toBe("answer_complete");
    const observed = JSON.parse(client.calls[1]?.messages.at(-1)?.content ?? "") as {
      observation: { join: { failure: { error_code: string } } };
    };
    expect(observed.observation.join.failure.error_code).toBe("invalid_join_args");
    expect(log.ofType("parallel_end")[0]?.data.join).toMatchObject({
      status: "error",
      reason: "invalid_join_args",
    });
  });

  it("records a join that throws, and skips one with an unknown inject source", async () => {
    const thrower = defineTool({
      name: "explode",
      desc: "Fails",
      args: z.object({ results: z.array(z.unknown()) }),
      out: z.object({}),
      retry: { maxAttempts: 1 },
      run: () => {
        throw new Error("join broke");
      },
    });
    const { tool } = concurrencyProbe();
    const steps = [{ node: "work", args: { id: 1 } }];
    const client = new ScriptedClient([
      parallel({ steps, join: { node: "explode", inject: { results: "$results" } } }),
      parallel({ steps, join: { node: "explode", inject: { results: "$everything" } } }),
      answer("ok"),
    ]);
    const planner = new ReactPlanner({ llm: client, catalog: buildCatalog({ tools: [tool, thrower] }) });
    finished(await planner.run("x"));
    const first = JSON.parse(client.calls[1]?.messages.at(-1)?.content ?? "") as {
      observation: { join: { failure: { message: string } } };
    };
    expect(first.observation.join.failure.message).toBe("join broke");
    const second = JSON.parse(client.calls[2]?.messages.at(-1)?.content ?? "") as {
      observation: { join: { skipped: string }; branches: unknown[] };
    };
    expect(second.observation.join.skipped).toMatch(/^invalid_inject/);
    expect(second.observation.branches).toHaveLength(1);
  });
});

describe("ReactPlanner: parallel limits and hints", () => {
  it("honours max_parallel even when the LLM proposes more branches", async () => {
    const { probe, tool } = concurrencyProbe();
    const steps = Array.from({ length: 7 }, (_, id) => ({ node: "work", args: { id } }));
    const planner = new ReactPlanner({
      llm: new ScriptedClient([parallel({ steps }), answer("ok")]),
      catalog: buildCatalog({ tools: [tool] }),
      hints: { budget_hints: { max_parallel: 2 } },
    });
    const log = createEventLog();
    finished(await planner.run("x", { onEvent: log.onEvent }));
    expect(probe.calls).toBe(7);
    expect(probe.max).toBe(2);
    expect(log.ofType("constraint_violation")[0]?.data).toMatchObject({
      constraint: "max_parallel",
      enforced: "capped",
    });
    expect(log.ofType("parallel_start")[0]?.data.maxParallel).toBe(2);
  });

  it("applies the absolute cap over generous hints", async () => {
    const { probe, tool } = concurrencyProbe();
    const steps = Array.from({ length: 8 }, (_, id) => ({ node: "work", args: { id } }));
    const planner = new ReactPlanner({
      llm: new ScriptedClient([parallel({ steps }), answer("ok")]),
      catalog: buildCatalog({ tools: [tool] }),
      hints: { budget_hints: { max_parallel: 50 } },
      options: { maxParallelCap: 3 },
    });
    finished(await planner.run("x"));
    expect(probe.max).toBe(3);
  });

  it("never runs a disallowed tool inside a parallel branch", async () => {
    const { probe, tool } = concurrencyProbe();
    const banned = defineTool({ ...tool, name: "banned" });
    const client = new ScriptedClient([
      parallel({
        steps: [
          { node: "work", args: { id: 1 } },
          { node: "banned", args: { id: 2 } },
        ],
      }),
      parallel({
        steps: [
          { node: "work", args: { id: 1 } },
          { node: "work", args: { id: 2 } },
        ],
      }),
      answer("ok"),
    ]);
    const planner = new ReactPlanner({
      llm: client,
      catalog: buildCatalog({ tools: [tool, banned] }),
      hints: { disallow_nodes: ["banned"] },
    });
    const log = createEventLog();
    finished(await planner.run("x", { onEvent: log.onEvent }));
    expect(client.calls[1]?.messages.at(-1)?.content).toMatch(/steps\[1\]: banned is disallowed/);
    expect(log.ofType("tool_start").map((event) => event.data.tool)).toEqual(["work", "work"]);
    expect(probe.calls).toBe(2);
  });

  it("keeps sequential_only tools out of parallel plans", async () => {
    const { tool } = concurrencyProbe();
    const solo = defineTool({ ...tool, name: "solo" });
    const client = new ScriptedClient([
      parallel({
        steps: [
          { node: "work", args: { id: 1 } },
          { node: "solo", args: { id: 2 } },
        ],
      }),
      call("solo", { id: 2 }),
      answer("ok"),
    ]);
    const planner = new ReactPlanner({
      llm: client,
      catalog: buildCatalog({ tools: [tool, solo] }),
      hints: { sequential_only: ["solo"] },
    });
    const log = createEventLog();
    finished(await planner.run("x", { onEvent: log.onEvent }));
    expect(log.ofType("constraint_violation")[0]?.data).toMatchObject({
      constraint: "sequential_only",
      enforced: "rejected",
      node: "solo",
    });
    expect(log.ofType("parallel_start")).toEqual([]);
    expect(log.ofType("tool_start").map((event) => event.data.tool)).toEqual(["solo"]);
  });

  it("accepts the legacy top-level plan and join", async () => {
    const { planner } = createScriptedPlanner(research, [
      {
        thought: "fan out",
        next_node: null,
        args: null,
        plan: shards,
        join: { node: "merge_results", args: {}, inject: { results: "$results", expect: "$expect" } },
      },
      answer("ok"),
    ]);
    const log = createEventLog();
    finished(await planner.run("solar", { onEvent: log.onEvent }));
    expect(log.ofType("parallel_end")[0]?.data.join).toMatchObject({ status: "ok" });
    // A legacy thought is shown as the iteration's reflection: one short sentence, never more.
    expect(log.ofType("reasoning")[0]?.data).toEqual({ phase: "reflect", summary: "fan out" });
  });
});
