import { describe, expect, it } from "vitest";
import { RunEvent } from "./run-event.js";
import {
  applyRunSummary,
  createRunSummary,
  getRunFigures,
  getRunTokens,
  getStepsAfter,
  type RunSummary,
} from "./run-summary.js";

let seq = 0;
const event = (type: string, data: Record<string, unknown>, step = 0): RunEvent =>
  RunEvent.parse({ runId: "r", seq: ++seq, ts: 1000 + seq, step, type, data });

const llmCall = () =>
  event("llm_call", {
    purpose: "plan",
    provider: "openai",
    model: "m",
    offline: true,
    promptTokens: 10,
    completionTokens: 5,
    reasoningTokens: 1,
    costUsd: 0.5,
    latencyMs: 3,
  });

const fold = (events: readonly RunEvent[], from: RunSummary = createRunSummary()) =>
  events.reduce(applyRunSummary, from);

describe("applyRunSummary", () => {
  it("sums usage, counts steps and ends finished with the answer", () => {
    seq = 0;
    const events = [
      event("run_started", { query: "q", llm: { provider: "openai", model: "m", offline: true }, tools: [] }),
      event("step_start", { source: "llm" }, 0),
      llmCall(),
      event("step_start", { source: "llm" }, 1),
      llmCall(),
    ];
    const running = fold(events);
    // step 1 has started: one step (step 0) is done; the one in progress counts once recorded
    expect(running).toMatchObject({
      status: "running",
      steps: 1,
      usage: { promptTokens: 20, completionTokens: 10, reasoningTokens: 2, costUsd: 1, llmCalls: 2 },
      answer: null,
    });
    const usage = { promptTokens: 30, completionTokens: 10, reasoningTokens: 2, costUsd: 1, llmCalls: 3 };
    const finished = applyRunSummary(
      running,
      event("run_finished", {
        reason: "answer_complete",
        payload: {
          answer: "Done.",
          artifacts: {},
          sources: [],
          suggested_actions: [],
          requires_followup: false,
        },
        metadata: { steps: 1, llmCalls: 3, autoSeqSavedCalls: 0, usage, durationMs: 5 },
      }),
    );
    expect(finished).toMatchObject({
      status: "finished",
      answer: "Done.",
      steps: 1,
      usage,
      finishReason: "answer_complete",
    });
    expect(running.status).toBe("running");
  });

  it("follows pauses and failures, and ignores old events", () => {
    seq = 0;
    const paused = fold([event("pause", { reason: "approval_required", payload: {}, resumeToken: "t" })]);
    expect(paused.status).toBe("paused");
    expect(applyRunSummary(paused, { ...llmCall(), seq: 1 })).toBe(paused);
    const failed = fold(
      [
        event("resumed", { decision: "approve" }),
        event("run_failed", { error: { code: "x", message: "boom" } }),
      ],
      paused,
    );
    expect(failed).toMatchObject({ status: "failed", error: { code: "x", message: "boom" } });
  });
});

describe("getStepsAfter, getRunTokens, getRunFigures", () => {
  const finished = (steps: number, step: number) =>
    event(
      "run_finished",
      {
        reason: "answer_complete",
        payload: { answer: "A", artifacts: {}, sources: [], suggested_actions: [], requires_followup: false },
        metadata: {
          steps,
          llmCalls: 0,
          autoSeqSavedCalls: 0,
          usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0, llmCalls: 0 },
          durationMs: 1,
        },
      },
      step,
    );

  it("counts the steps recorded before each event: never the answering step, never down", () => {
    seq = 0;
    expect(getStepsAfter(0, event("step_start", { source: "llm" }, 0))).toBe(0);
    expect(getStepsAfter(0, event("step_start", { source: "llm" }, 3))).toBe(3);
    // a late event of an earlier step (a parallel's observation) does not lower it
    expect(getStepsAfter(3, event("step_start", { source: "llm" }, 2))).toBe(3);
    // the answering step (index 3) is not one: the run recorded 3
    expect(getStepsAfter(3, finished(3, 3))).toBe(3);
    expect(getStepsAfter(2, finished(4, 2))).toBe(4);
  });

  it("counts prompt and completion tokens once (reasoning is inside completion)", () => {
    expect(getRunTokens({ promptTokens: 10, completionTokens: 5 })).toBe(15);
    seq = 0;
    const figures = getRunFigures([
      event("step_start", { source: "llm" }, 0),
      llmCall(),
      event("step_start", { source: "llm" }, 1),
      llmCall(),
      finished(1, 1),
    ]);
    expect(figures).toEqual({ steps: 1, tokens: 30 });
  });
});
