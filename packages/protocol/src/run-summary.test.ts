import { describe, expect, it } from "vitest";
import { RunEvent } from "./run-event.js";
import { applyRunSummary, createRunSummary, type RunSummary } from "./run-summary.js";

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
    expect(running).toMatchObject({
      status: "running",
      steps: 2,
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
