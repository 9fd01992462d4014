import type { RunEvent, RunEventData, RunEventOf, RunEventType } from "@waddle/protocol";

export interface RunEventFactory {
  /** The next event of the run: `seq` counts on from 1, `ts` moves 10 ms a call, `step` as last set. */
  next<T extends RunEventType>(
    type: T,
    data: RunEventData<T>,
    at?: { step?: number; ts?: number },
  ): RunEventOf<T>;
  /** The `seq` the next event will get. */
  readonly seq: number;
}

/** Builds hand-written event streams for tests, in the protocol's envelope. */
export function createEventFactory(runId = "run-1", start = { seq: 1, ts: 1_000 }): RunEventFactory {
  let seq = start.seq;
  let ts = start.ts;
  let step = 0;
  return {
    get seq() {
      return seq;
    },
    next(type, data, at = {}) {
      step = at.step ?? step;
      ts = at.ts ?? ts + 10;
      const event = { runId, seq, ts, step, type, data } as RunEventOf<typeof type>;
      seq += 1;
      return event;
    },
  };
}

const LLM = { provider: "offline", model: "offline", offline: true };

/**
 * A long run for speed tests: `steps` LLM-chosen steps over `tools` (tool_0, tool_1, …), each with its
 * stream, LLM call, reasoning, a tool call and an observation, then an answer (about 10 events a step).
 */
export function makeLongRun(options: { steps: number; tools?: number; runId?: string }): RunEvent[] {
  const { steps, tools = 10, runId = "run-long" } = options;
  const events = createEventFactory(runId);
  const list: RunEvent[] = [
    events.next("run_started", {
      query: "a long run",
      llm: LLM,
      tools: Array.from({ length: tools }, (_, index) => `tool_${index}`),
    }),
  ];
  for (let step = 0; step < steps; step += 1) {
    const tool = `tool_${step % tools}`;
    const at = { step };
    const callId = `step-${step}`;
    list.push(
      events.next("step_start", { source: "llm" }, at),
      events.next(
        "llm_stream_chunk",
        { text: `thinking ${step}`, done: false, phase: "thinking", channel: "thinking", action_seq: step },
        at,
      ),
      events.next(
        "llm_call",
        {
          purpose: "plan",
          ...LLM,
          promptTokens: 100,
          completionTokens: 10,
          reasoningTokens: 0,
          costUsd: 0.001,
          latencyMs: 20,
        },
        at,
      ),
      events.next("reasoning", { phase: "reflect", summary: `step ${step}` }, at),
      events.next("action", { next_node: tool, args: { n: step }, source: "llm", action_seq: step }, at),
      events.next("reasoning", { phase: "act", summary: `calling ${tool}` }, at),
      events.next("tool_start", { tool, callId, args: { n: step }, attempt: 1, source: "llm" }, at),
      events.next("tool_end", { tool, callId, observation: { n: step }, durationMs: 5 }, at),
      events.next("reasoning", { phase: "obs", summary: `${tool} → {n}` }, at),
    );
  }
  const at = { step: steps };
  const usage = { promptTokens: 100 * steps, completionTokens: 10 * steps, reasoningTokens: 0 };
  list.push(
    events.next("step_start", { source: "llm" }, at),
    events.next(
      "llm_stream_chunk",
      { text: "done", done: false, phase: "answer", channel: "answer", action_seq: steps },
      at,
    ),
    events.next(
      "run_finished",
      {
        reason: "answer_complete",
        payload: {
          answer: "done",
          artifacts: {},
          sources: [],
          suggested_actions: [],
          requires_followup: false,
        },
        metadata: {
          steps,
          llmCalls: steps,
          autoSeqSavedCalls: 0,
          usage: { ...usage, costUsd: 0.001 * steps, llmCalls: steps },
          durationMs: 10 * list.length,
        },
      },
      at,
    ),
  );
  return list;
}
