import { PlannerOptions, type RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Cancellation } from "../util/cancellation.js";
import { fromDefinition } from "../catalog/catalog.js";
import { RunEventEmitter } from "../run/run-event-emitter.js";
import { createRunState } from "../run/run-state.js";
import { createVirtualTime } from "../testing/run-harness.js";
import { defineTool, type ToolRunContext } from "../catalog/tool.js";
import { executeToolCall } from "./tool-executor.js";
import type { ToolRuntime } from "./tool-runtime.js";
import { ToolPauseSignal } from "./tool-pause-signal.js";
import { MAX_PROGRESS_EVENTS } from "./tool-attempt.js";
import type { ToolUsageReport } from "../catalog/tool-usage-report.js";

function setup(input: {
  run: (args: { n: number }, context: ToolRunContext) => unknown;
  signal?: AbortSignal;
  deadlineAt?: number;
  timeoutMs?: number;
  calls?: ToolRuntime["calls"];
}) {
  const events: RunEvent[] = [];
  const reports: { report: ToolUsageReport; step: number }[] = [];
  const time = createVirtualTime(0);
  const state = createRunState({ runId: "r1", query: "q", startedAt: 0 });
  const runtime: ToolRuntime = {
    runId: "r1",
    query: "q",
    toolContext: { token: "tok-secret-1" },
    cancellation: new Cancellation(input.signal),
    events: new RunEventEmitter({
      state,
      sink: (event) => events.push(event),
      clock: time.clock,
      secrets: new Set(["tok-secret-1"]),
      previewChars: 200,
    }),
    clock: time.clock,
    random: () => 0,
    sleep: time.sleep,
    options: PlannerOptions.parse({ toolRetry: { maxAttempts: 3, backoffMs: 100, maxBackoffMs: 1_000 } }),
    secrets: new Set(["tok-secret-1"]),
    observations: { last: undefined, byTool: {} },
    reportUsage: (report, step) => void reports.push({ report, step }),
    ...(input.deadlineAt === undefined ? {} : { deadlineAt: input.deadlineAt }),
    ...(input.calls === undefined ? {} : { calls: input.calls }),
  };
  const tool = fromDefinition(
    defineTool({
      name: "probe",
      desc: "Probe",
      args: z.object({ n: z.number() }),
      out: z.object({ doubled: z.number() }),
      ...(input.timeoutMs === undefined ? {} : { timeoutMs: input.timeoutMs }),
      run: input.run as never,
    }),
  );
  const call = (args = { n: 2 }) =>
    executeToolCall(runtime, { tool, args, step: 3, callId: "c1", source: "llm" });
  return { call, events, time, reports };
}

describe("executeToolCall", () => {
  it("runs the tool with its context and validates the result", async () => {
    let seen: ToolRunContext | undefined;
    const { call, events } = setup({ run: ({ n }, context) => ((seen = context), { doubled: n * 2 }) });
    expect(await call()).toMatchObject({ ok: true, observation: { doubled: 4 }, attempts: 1 });
    expect(seen).toMatchObject({
      runId: "r1",
      step: 3,
      callId: "c1",
      attempt: 1,
      query: "q",
      toolContext: { token: "tok-secret-1" },
    });
    expect(seen?.signal.aborted).toBe(false);
    expect(events.map((event) => event.type)).toEqual(["tool_start", "tool_end"]);
    expect(events[0]?.data).toMatchObject({ tool: "probe", args: { n: 2 }, attempt: 1, source: "llm" });
  });

  it("passes the model usage a tool reports to the run, validated, at the call's step", async () => {
    const { call, reports } = setup({
      run: ({ n }, context) => {
        context.reportUsage({
          provider: "openai",
          model: "gpt-4o-mini",
          promptTokens: 10,
          completionTokens: 4,
        });
        return { doubled: n * 2 };
      },
    });
    expect(await call()).toMatchObject({ ok: true });
    expect(reports).toEqual([
      {
        report: {
          provider: "openai",
          model: "gpt-4o-mini",
          promptTokens: 10,
          completionTokens: 4,
          purpose: "tool",
        },
        step: 3,
      },
    ]);
    const bad = setup({
      run: (_args, context) => {
        context.reportUsage({ provider: "openai", model: "m", promptTokens: -1, completionTokens: 0.5 });
        return { doubled: 0 };
      },
    });
    const result = await bad.call();
    expect(result).toMatchObject({ ok: false, failure: { error_code: "invalid_usage_report" } });
    expect(result.ok ? "" : result.failure.message).toMatch(/promptTokens.*completionTokens/s);
    expect(bad.reports).toEqual([]);
  });

  it("treats a plain value, a promise and another thenable alike (a plain value skips the await)", async () => {
    const results = [
      (n: number) => ({ doubled: n * 2 }),
      (n: number) => Promise.resolve({ doubled: n * 2 }),
      (n: number) => ({ then: (resolve: (value: unknown) => void) => resolve({ doubled: n * 2 }) }),
      (n: number) => ({ doubled: String(n * 2) }),
      (n: number) => Promise.resolve({ doubled: String(n * 2) }),
    ];
    const outcomes = [];
    for (const result of results) {
      const { call, events } = setup({ run: ({ n }) => result(n) });
      const outcome = await call();
      outcomes.push(outcome.ok ? outcome.observation : outcome.failure.error_code);
      expect(events.at(-1)?.type).toBe(outcome.ok ? "tool_end" : "tool_error");
    }
    expect(outcomes).toEqual([
      { doubled: 4 },
      { doubled: 4 },
      { doubled: 4 },
      "invalid_output",
      "invalid_output",
    ]);
  });

  it("retries with backoff, then reports the failure with a scrubbed message", async () => {
    let attempts = 0;
    const { call, events, time } = setup({
      run: () => {
        attempts += 1;
        throw Object.assign(new Error("denied for tok-secret-1"), {
          code: "auth_failed",
          suggestion: "Check the account.",
        });
      },
    });
    const result = await call();
    expect(attempts).toBe(3);
    expect(time.sleeps).toEqual([50, 100]);
    expect(result).toMatchObject({
      ok: false,
      cancelled: false,
      failure: {
        node: "probe",
        error_code: "auth_failed",
        message: "denied for [redacted]",
        suggestion: "Check the account.",
      },
    });
    expect(events.map((event) => event.type)).toEqual([
      "tool_start",
      "tool_retry",
      "tool_start",
      "tool_retry",
      "tool_start",
      "tool_error",
    ]);
  });

  it("does not retry errors marked retryable: false, or invalid results", async () => {
    let attempts = 0;
    const fatal = setup({
      run: () => {
        attempts += 1;
        throw Object.assign(new Error("bad input"), { retryable: false });
      },
    });
    expect(await fatal.call()).toMatchObject({ ok: false, failure: { error_code: "tool_error" } });
    expect(attempts).toBe(1);
    const invalid = setup({
      run: () => {
        attempts += 1;
        return { doubled: "two" };
      },
    });
    expect(await invalid.call()).toMatchObject({
      ok: false,
      failure: { error_code: "invalid_output", message: expect.stringMatching(/doubled/) },
    });
    expect(attempts).toBe(2);
  });

  it("times out a slow tool, aborting its signal", async () => {
    let signal: AbortSignal | undefined;
    const { call } = setup({
      timeoutMs: 5,
      run: (_args, context) => {
        signal = context.signal;
        return new Promise(() => undefined);
      },
    });
    const result = await call();
    expect(result).toMatchObject({
      ok: false,
      attempts: 3,
      failure: { error_code: "timeout", message: "probe did not finish within 5 ms." },
    });
    expect(signal?.aborted).toBe(true);
  });

  it("schedules no retry past the deadline", async () => {
    const { call, time } = setup({ deadlineAt: 60, run: () => Promise.reject(new Error("flaky")) });
    await call();
    expect(time.sleeps).toEqual([50]);
  });

  it("stops at once when the run is cancelled and lets pause signals through", async () => {
    const controller = new AbortController();
    const { call } = setup({ signal: controller.signal, run: () => new Promise(() => undefined) });
    const pending = call();
    await Promise.resolve();
    await Promise.resolve();
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, cancelled: true, failure: { error_code: "cancelled" } });
    const pausing = setup({ run: (_args, context) => context.pause("await_input", { q: "which?" }) });
    await expect(pausing.call()).rejects.toBeInstanceOf(ToolPauseSignal);
  });

  it("emits reported progress as tool_progress between the call's start and end, bounded and redacted", async () => {
    const { call, events } = setup({
      run: async (args, context) => {
        for (let at = 1; at <= MAX_PROGRESS_EVENTS + 5; at += 1) {
          context.reportProgress?.({
            progress: at,
            total: MAX_PROGRESS_EVENTS + 5,
            message: `step ${at} tok-secret-1`,
          });
        }
        context.reportProgress?.({ progress: Number.NaN });
        await Promise.resolve();
        return { doubled: args.n * 2 };
      },
    });
    expect(await call()).toMatchObject({ ok: true });
    const progress = events.filter((event) => event.type === "tool_progress");
    expect(progress).toHaveLength(MAX_PROGRESS_EVENTS);
    expect(progress[0]).toMatchObject({
      step: 3,
      data: {
        tool: "probe",
        callId: "c1",
        progress: 1,
        total: MAX_PROGRESS_EVENTS + 5,
        message: "step 1 [redacted]",
      },
    });
    const types = events.map((event) => event.type);
    expect(types.indexOf("tool_start")).toBeLessThan(types.indexOf("tool_progress"));
    expect(types.lastIndexOf("tool_progress")).toBeLessThan(types.indexOf("tool_end"));
  });

  it("never runs a call the replay layer refuses: the refusal is the call's failure, not retried", async () => {
    let runs = 0;
    const recorded: unknown[] = [];
    const { call, events } = setup({
      run: ({ n }) => {
        runs += 1;
        return { doubled: n * 2 };
      },
      calls: {
        record: (record) => void recorded.push(record),
        replay: {
          tool: ({ args }) =>
            args["n"] === 2
              ? { observation: { doubled: 4 } }
              : { refused: { code: "not_recorded", message: "No recorded call matches." } },
        },
      },
    });
    expect(await call({ n: 5 })).toMatchObject({
      ok: false,
      attempts: 1,
      cancelled: false,
      failure: {
        node: "probe",
        args: { n: 5 },
        error_code: "not_recorded",
        message: "No recorded call matches.",
      },
    });
    expect(await call({ n: 2 })).toMatchObject({ ok: true, observation: { doubled: 4 } });
    expect(runs).toBe(0);
    expect(events.map((event) => event.type)).toEqual(["tool_start", "tool_error", "tool_start", "tool_end"]);
    expect(events[1]).toMatchObject({ data: { failure: { error_code: "not_recorded" } } });
    // A refused call is no recorded result: only the served one is part of this run's record.
    expect(recorded).toHaveLength(1);
  });
});
