import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { createEventFactory } from "../../testing/make-run-events.js";
import { getRunFixture } from "../../testing/run-fixtures.js";
import { applyRunEvents, createRunView } from "../fold/apply-run-event.js";
import { compareRuns, getCompareSummaryText } from "./compare-runs.js";

const LLM = { provider: "openai", model: "gpt-test", offline: false };

/** A run that calls `tools` one per step (failing those in `failing`), then answers. */
function makeRun(
  runId: string,
  tools: string[],
  options: { failing?: string[]; costUsd?: number; editedStep?: number } = {},
) {
  const events = createEventFactory(runId);
  const list: RunEvent[] = [events.next("run_started", { query: "q", llm: LLM, tools })];
  const llmCall = (step: number) =>
    events.next(
      "llm_call",
      {
        purpose: "plan",
        ...LLM,
        promptTokens: 100,
        completionTokens: 20,
        reasoningTokens: 0,
        costUsd: options.costUsd ?? 0.01,
        latencyMs: 30,
      },
      { step },
    );
  tools.forEach((tool, step) => {
    const callId = `step-${step}`;
    list.push(
      events.next("step_start", { source: "llm" }, { step }),
      llmCall(step),
      events.next("action", { next_node: tool, args: {}, source: "llm", action_seq: step }, { step }),
      events.next("tool_start", { tool, callId, args: {}, attempt: 1, source: "llm" }, { step }),
      options.failing?.includes(tool)
        ? events.next(
            "tool_error",
            {
              tool,
              callId,
              durationMs: 5,
              failure: { node: tool, args: {}, error_code: "boom", message: "boom" },
            },
            { step },
          )
        : events.next(
            "tool_end",
            {
              tool,
              callId,
              observation: {},
              durationMs: 5,
              ...(options.editedStep === step ? { edited: true } : {}),
            },
            { step },
          ),
    );
  });
  const step = tools.length;
  list.push(
    events.next("step_start", { source: "llm" }, { step }),
    llmCall(step),
    events.next(
      "action",
      { next_node: "final_response", args: {}, source: "llm", action_seq: step },
      { step },
    ),
  );
  return applyRunEvents(createRunView(runId), list);
}

describe("compareRuns", () => {
  it("finds nothing different between a run and itself", () => {
    const { spec, events } = getRunFixture("sharded-research");
    const view = applyRunEvents(createRunView("run"), events, { spec });
    const comparison = compareRuns(view, view);
    expect(comparison.divergesAt).toBeNull();
    expect(comparison.rows.every((row) => row.same)).toBe(true);
    expect(comparison.rows.map((row) => row.left?.action)).toEqual([
      "parallel",
      "write_brief",
      "final_response",
    ]);
    expect(comparison.rows[0]?.left?.tools).toEqual([
      "search_web",
      "search_papers",
      "search_news",
      "merge_results",
    ]);
    expect(comparison.delta).toEqual({
      llmCalls: 0,
      tokens: 0,
      costUsd: 0,
      elapsedMs: 0,
      steps: 0,
      hops: 0,
      autoSeqSaved: 0,
    });
  });

  it("aligns steps by index, says where the runs part and what the right one cost more", () => {
    const left = makeRun("run-a", ["alpha", "beta"]);
    const right = makeRun("run-b", ["alpha", "gamma", "gamma"], { failing: ["gamma"], costUsd: 0.02 });
    const comparison = compareRuns(left, right);
    expect(
      comparison.rows.map((row) => [
        row.index,
        row.left?.action ?? null,
        row.right?.action ?? null,
        row.same,
      ]),
    ).toEqual([
      [0, "alpha", "alpha", true],
      [1, "beta", "gamma", false],
      [2, "final_response", "gamma", false],
      [3, null, "final_response", false],
    ]);
    expect(comparison.divergesAt).toBe(1);
    expect(comparison.rows[1]?.right).toMatchObject({ failures: 1, llmCalls: 1, tokens: 120, costUsd: 0.02 });
    expect(comparison.rows[1]?.left).toMatchObject({ failures: 0, source: "llm", durationMs: 40 });
    expect(comparison.delta.llmCalls).toBe(1);
    expect(comparison.delta.tokens).toBe(120);
    expect(comparison.delta.costUsd).toBeCloseTo(4 * 0.02 - 3 * 0.01);
    expect(comparison.delta.hops).toBe(1);
    expect(comparison.delta.elapsedMs).toBeGreaterThan(0);
    expect(comparison.left).toMatchObject({ runId: "run-a", status: "running" });
  });

  it("marks a step whose call a person rejected", () => {
    const events = createEventFactory("r");
    const view = applyRunEvents(createRunView("r"), [
      events.next("step_start", { source: "llm" }, { step: 0 }),
      events.next("action", { next_node: "send", args: {}, source: "llm", action_seq: 0 }, { step: 0 }),
      events.next(
        "pause",
        { reason: "approval_required", payload: { tool: "send", args: {} }, resumeToken: "t" },
        { step: 0 },
      ),
      events.next("resumed", { decision: "reject", note: "no" }, { step: 0 }),
    ]);
    const comparison = compareRuns(view, view);
    expect(comparison.rows[0]?.left).toMatchObject({ action: "send", rejected: true });
  });

  it("says a fork's edited result instead of 'the same at every step' when the tools were the same", () => {
    const parent = makeRun("parent", ["alpha", "beta", "gamma"]);
    const fork = makeRun("fork", ["alpha", "beta", "gamma"], { editedStep: 1 });
    const comparison = compareRuns(parent, fork);
    expect(comparison.divergesAt).toBeNull();
    expect(comparison.editedAt).toBe(1);
    expect(comparison.rows[1]?.right).toMatchObject({ action: "beta", edited: true });
    expect(comparison.rows[1]?.left?.edited).toBeUndefined();
    const text = getCompareSummaryText(comparison);
    expect(text).not.toMatch(/same thing at every step/);
    expect(text).toBe(
      "Same tools at every step, but B's result at step 2 was edited when it was forked: the steps after it saw another result.",
    );
    // a fork of the fork copied the same edit: no difference there
    expect(
      compareRuns(fork, makeRun("fork-2", ["alpha", "beta", "gamma"], { editedStep: 1 })).editedAt,
    ).toBeNull();
    // the fork on the left
    expect(getCompareSummaryText(compareRuns(fork, parent))).toMatch(
      /^Same tools at every step, but A's result/,
    );
  });

  it("words an edit before, at or after the step where the runs part", () => {
    const parent = makeRun("parent", ["alpha", "beta", "gamma"]);
    expect(
      getCompareSummaryText(compareRuns(parent, makeRun("f", ["alpha", "beta", "delta"], { editedStep: 1 }))),
    ).toBe("B's result at step 2 was edited when it was forked; from there the runs part at step 3.");
    expect(
      getCompareSummaryText(compareRuns(parent, makeRun("f", ["alpha", "delta"], { editedStep: 1 }))),
    ).toBe("The runs part at step 2, where B's result at step 2 was edited when it was forked.");
    expect(
      getCompareSummaryText(compareRuns(parent, makeRun("f", ["delta", "beta"], { editedStep: 1 }))),
    ).toBe("The runs part at the first step.");
    expect(getCompareSummaryText(compareRuns(parent, parent))).toBe(
      "Same path: both runs did the same thing at every step.",
    );
  });

  it("compares an empty run", () => {
    const comparison = compareRuns(createRunView("a"), makeRun("b", ["alpha"]));
    expect(comparison.divergesAt).toBe(0);
    expect(comparison.rows).toHaveLength(2);
    expect(comparison.rows[0]?.left).toBeUndefined();
  });
});
