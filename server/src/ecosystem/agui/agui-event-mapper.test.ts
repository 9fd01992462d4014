import type { Event as AguiEvent } from "@ag-ui/core";
import { EventSchema } from "@ag-ui/core/schemas";
import type { RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { AguiEventMapper, FULL_VIEW } from "./agui-event-mapper.js";

let seq = 0;
/** A run event in its envelope; seq counts up across a test file, as ids only need to be unique. */
function event(type: RunEvent["type"], data: Record<string, unknown>, step = 0): RunEvent {
  seq += 1;
  return { runId: "run_1", seq, ts: 0, step, type, data } as unknown as RunEvent;
}
const chunk = (channel: "answer" | "thinking", text: string, call = 0, done = false) =>
  event("llm_stream_chunk", { text, done, phase: channel, channel, action_seq: call });

function mapAll(mapper: AguiEventMapper, events: RunEvent[]): AguiEvent[] {
  const mapped = events.flatMap((item) => mapper.map(item));
  for (const item of mapped) expect(EventSchema.safeParse(item).error).toBeUndefined();
  return mapped;
}
const types = (events: AguiEvent[]) => events.map((item) => item.type);

describe("AguiEventMapper", () => {
  it("closes a call's thought when its answer starts, and leaves a streamed final answer alone", () => {
    const mapper = new AguiEventMapper({ waddleRunId: "run_1", view: FULL_VIEW });
    const mapped = mapAll(mapper, [
      event("step_start", { source: "llm" }),
      chunk("thinking", "Hmm"),
      chunk("answer", "Hello"),
      chunk("answer", " there"),
      chunk("thinking", "", 0, true),
      chunk("answer", "", 0, true),
    ]);
    expect(types(mapped)).toEqual([
      "STEP_STARTED",
      "REASONING_START",
      "REASONING_MESSAGE_START",
      "REASONING_MESSAGE_CONTENT",
      "REASONING_MESSAGE_END",
      "REASONING_END",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
    ]);
    expect(mapped[0]).toMatchObject({ stepName: "step 1" });
    expect(mapper.completeAnswer("Hello there", 99)).toEqual([]);
    expect(types(mapper.close())).toEqual(["STEP_FINISHED"]);
  });

  it("adds what the stream left out of the final answer, or the whole answer when none streamed", () => {
    const streamed = new AguiEventMapper({ waddleRunId: "run_1", view: FULL_VIEW });
    mapAll(streamed, [chunk("answer", "Hello")]);
    expect(streamed.completeAnswer("Hello world", 99)).toMatchObject([
      { type: "TEXT_MESSAGE_CONTENT", delta: " world" },
    ]);
    const silent = new AguiEventMapper({ waddleRunId: "run_1", view: FULL_VIEW });
    const whole = silent.completeAnswer("All done.", 42);
    expect(types(whole)).toEqual(["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END"]);
    expect(whole[1]).toMatchObject({ messageId: "run_1-42", delta: "All done." });
  });

  it("shows a tool call once through its retries, with its args, result or error", () => {
    const mapper = new AguiEventMapper({ waddleRunId: "run_1", view: FULL_VIEW });
    const mapped = mapAll(mapper, [
      event("tool_start", { tool: "lookup", callId: "step-1", args: { id: 7 }, attempt: 1 }),
      event("tool_start", { tool: "lookup", callId: "step-1", args: { id: 7 }, attempt: 2 }),
      event("tool_end", { tool: "lookup", callId: "step-1", observation: { found: true }, durationMs: 3 }),
      event("tool_start", { tool: "charge", callId: "step-2", args: {}, attempt: 1 }),
      event("tool_error", {
        tool: "charge",
        callId: "step-2",
        failure: { node: "charge", args: {}, error_code: "timeout", message: "took too long" },
        durationMs: 5,
      }),
    ]);
    expect(types(mapped)).toEqual([
      "TOOL_CALL_START",
      "TOOL_CALL_ARGS",
      "TOOL_CALL_END",
      "TOOL_CALL_RESULT",
      "TOOL_CALL_START",
      "TOOL_CALL_ARGS",
      "TOOL_CALL_END",
      "TOOL_CALL_RESULT",
    ]);
    expect(mapped[0]).toMatchObject({ toolCallId: "run_1-step-1", toolCallName: "lookup" });
    expect(mapped[1]).toMatchObject({ delta: '{"id":7}' });
    expect(mapped[3]).toMatchObject({ messageId: "run_1-step-1-result", content: '{"found":true}' });
    expect(JSON.parse((mapped[7] as { content: string }).content)).toEqual({
      error: { code: "timeout", message: "took too long" },
    });
  });

  it("shows a visitor tool names and outcomes only (or nothing of them): no args, results or thinking", () => {
    const mapper = new AguiEventMapper({ waddleRunId: "run_1", view: { tools: "names", thinking: false } });
    const mapped = mapAll(mapper, [
      chunk("thinking", "The card number is 4242…"),
      event("tool_start", { tool: "lookup", callId: "step-1", args: { card: "4242" }, attempt: 1 }),
      event("tool_end", { tool: "lookup", callId: "step-1", observation: { secret: "x" }, durationMs: 1 }),
    ]);
    expect(types(mapped)).toEqual(["TOOL_CALL_START", "TOOL_CALL_END", "TOOL_CALL_RESULT"]);
    expect(JSON.stringify(mapped)).not.toMatch(/4242|secret/);
    expect(mapped[2]).toMatchObject({ content: '{"status":"done"}' });
    // showSteps "none": no tool call at all, the answer still streams.
    const hidden = new AguiEventMapper({ waddleRunId: "run_1", view: { tools: "none", thinking: false } });
    const quiet = mapAll(hidden, [
      event("tool_start", { tool: "lookup", callId: "step-1", args: {}, attempt: 1 }),
      event("tool_end", { tool: "lookup", callId: "step-1", observation: {}, durationMs: 1 }),
      chunk("answer", "Done"),
    ]);
    expect(types(quiet)).toEqual(["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]);
  });

  it("turns each todos_updated into a JSON Patch of state.todos, from the list the client holds", () => {
    const mapper = new AguiEventMapper({
      waddleRunId: "run_1",
      view: FULL_VIEW,
      todos: [{ id: "1", content: "Find it", status: "in_progress" }],
    });
    const mapped = mapAll(mapper, [
      event("todos_updated", {
        revision: 2,
        todos: [
          { id: "1", content: "Find it", status: "completed" },
          { id: "2", content: "Fix it", status: "in_progress" },
        ],
      }),
      event("todos_updated", { revision: 3, todos: [{ id: "1", content: "Find it", status: "completed" }] }),
    ]);
    expect(mapped).toEqual([
      {
        type: "STATE_DELTA",
        delta: [
          { op: "replace", path: "/todos/0", value: { id: "1", content: "Find it", status: "completed" } },
          { op: "add", path: "/todos/-", value: { id: "2", content: "Fix it", status: "in_progress" } },
        ],
      },
      { type: "STATE_DELTA", delta: [{ op: "remove", path: "/todos/1" }] },
    ]);
    expect(mapper.todos).toEqual([{ id: "1", content: "Find it", status: "completed" }]);
  });

  it("names a new step per step_start, and counts each LLM call's tokens", () => {
    const mapper = new AguiEventMapper({ waddleRunId: "run_1", view: FULL_VIEW });
    const mapped = mapAll(mapper, [
      event("step_start", { source: "llm" }, 0),
      event(
        "llm_call",
        {
          purpose: "plan",
          provider: "openai",
          model: "m",
          offline: false,
          promptTokens: 10,
          completionTokens: 4,
          reasoningTokens: 1,
          costUsd: 0,
          latencyMs: 1,
        },
        0,
      ),
      event("step_start", { source: "llm" }, 1),
    ]);
    expect(mapped).toEqual([
      { type: "STEP_STARTED", stepName: "step 1" },
      { type: "STEP_FINISHED", stepName: "step 1" },
      { type: "STEP_STARTED", stepName: "step 2" },
    ]);
    expect(mapper.tokenUsage).toEqual([
      {
        provider: "openai",
        model: "m",
        inputTokens: 10,
        outputTokens: 4,
        totalTokens: 14,
        reasoningTokens: 1,
      },
    ]);
  });
});
