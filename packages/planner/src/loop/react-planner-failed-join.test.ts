import { AgentSpec, type PlannerFinishResult } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { InMemoryStateStore } from "../pause/in-memory-state-store.js";
import { OfflineModel } from "../llm/offline/offline-model.js";
import { ReactPlanner } from "./react-planner.js";
import { loadExampleAgent } from "../testing/load-example-agent.js";
import { answer, call, createEventLog, createScriptedPlanner } from "../testing/run-harness.js";

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
/** `$success_count` is a count; merge_results' `results` takes an array: the join fails on every run. */
const badJoin = {
  next_node: "parallel",
  args: { steps: shards, join: { node: "merge_results", inject: { results: "$success_count" } } },
};

describe("ReactPlanner: a join that fails shows in the run's outcome", () => {
  it("tells the model, the events and the finish that the join failed", async () => {
    const { planner, client } = createScriptedPlanner(research, [badJoin, answer("a brief")]);
    const log = createEventLog();
    const result = finished(await planner.run("solar", { onEvent: log.onEvent }));

    const observed = JSON.parse(client.calls[1]?.messages.at(-1)?.content ?? "") as {
      observation: {
        join: { status: string; node: string; failure: { error_code: string; message: string } };
      };
    };
    expect(observed.observation.join).toMatchObject({
      status: "error",
      node: "merge_results",
      failure: { error_code: "invalid_join_args" },
    });
    expect(observed.observation.join.failure.message).toMatch(/merge_results did not run.*results/);
    expect(log.ofType("parallel_end")[0]?.data.join).toMatchObject({
      status: "error",
      node: "merge_results",
      reason: "invalid_join_args",
      message: expect.stringContaining("do not validate"),
    });
    const summaries = log.ofType("reasoning").map((event) => event.data.summary);
    expect(summaries).toContain(
      "Parallel: 3 succeeded, 0 failed; join merge_results failed (invalid_join_args)",
    );

    const failedJoin = {
      step: 0,
      node: "merge_results",
      errorCode: "invalid_join_args",
      message: expect.stringContaining("do not validate"),
      recovered: false,
    };
    expect(result.reason).toBe("answer_complete");
    expect(result.metadata.failedJoins).toEqual([failedJoin]);
    expect(result.payload).toMatchObject({ answer: "a brief", requires_followup: true });
    const [done] = log.ofType("run_finished");
    expect(done?.data.metadata.failedJoins).toEqual([failedJoin]);
    expect(done?.data.payload.requires_followup).toBe(true);
  });

  it("counts a join redone successfully later as recovered, and leaves the answer as written", async () => {
    const merged = call("merge_results", { results: [{ source: "web" }], expect: 1 });
    const { planner } = createScriptedPlanner(research, [badJoin, merged, answer("a brief")]);
    const result = finished(await planner.run("solar"));
    expect(result.metadata.failedJoins).toEqual([expect.objectContaining({ step: 0, recovered: true })]);
    expect(result.payload.requires_followup).toBe(false);
  });

  it("adds nothing to a run whose joins all ran", async () => {
    const goodJoin = {
      next_node: "parallel",
      args: {
        steps: shards,
        join: { node: "merge_results", inject: { results: "$results", expect: "$expect" } },
      },
    };
    const { planner } = createScriptedPlanner(research, [goodJoin, answer("a brief")]);
    const result = finished(await planner.run("solar"));
    expect(result.metadata.failedJoins).toBeUndefined();
    expect(result.payload.requires_followup).toBe(false);
  });

  it("says so in the offline model's answer when a group's join refuses its injection", async () => {
    // Saved before validation refused such joins: `results` into a join tool that takes only `text`.
    const spec = AgentSpec.parse({
      version: 1,
      id: "refused-join",
      name: "Refused join",
      tools: [
        { name: "a", desc: "A", outSchema: object({ x: { type: "string" } }), impl: mock({ x: "one" }) },
        { name: "b", desc: "B", outSchema: object({ x: { type: "string" } }), impl: mock({ x: "two" }) },
        {
          name: "merge",
          desc: "Merge",
          argsSchema: {
            ...object({ text: { type: "string" } }),
            required: ["text"],
            additionalProperties: false,
          },
          outSchema: object({ summary: { type: "string" } }),
          impl: mock({ summary: "merged" }),
        },
      ],
      groups: [
        {
          id: "g",
          kind: "parallel",
          name: "G",
          members: ["a", "b"],
          join: { tool: "merge", inject: { results: "$results" } },
        },
      ],
    });
    const planner = ReactPlanner.fromSpec(spec, {
      llm: new OfflineModel({ chunkDelayMs: 0 }),
      stateStore: new InMemoryStateStore(),
    });
    const log = createEventLog();
    const result = finished(await planner.run("go", { onEvent: log.onEvent }));
    expect(log.ofType("parallel_end")[0]?.data.join).toMatchObject({ status: "error", node: "merge" });
    expect(result.payload.answer).toMatch(/merge failed/);
    expect(result.payload.requires_followup).toBe(true);
    expect(result.metadata.failedJoins).toEqual([
      expect.objectContaining({ node: "merge", errorCode: "invalid_join_args", recovered: false }),
    ]);
    expect(result.metadata.failedJoins?.[0]?.message).toMatch(/Unrecognized key: "results"/);
  });
});

function object(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: "object", properties };
}

function mock(output: unknown): { kind: "mock"; output: unknown } {
  return { kind: "mock", output };
}
