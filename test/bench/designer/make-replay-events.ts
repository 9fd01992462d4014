import type { RunEvent, RunEventData, RunEventOf, RunEventType } from "@waddle/protocol";

/** The run the replay benchmark stores: which agent it ran and how many events it has. */
export interface ReplayRunShape {
  runId: string;
  agentId: string;
  agentVersion: number;
  /** The agent's tools, walked in order, one step each. */
  tools: readonly string[];
  /** Parallel groups: every twelfth step fans out over one of them. */
  groups: readonly { id: string; members: readonly string[] }[];
  /** Events in all (seq 1 … events); at least TAIL_EVENTS + 1. */
  events: number;
  /** `ts` of the first event (ms since the epoch). */
  startTs: number;
}

const LLM = { provider: "bench", model: "chain-walk", offline: false } as const;
/** The final step: start, thinking and its end, answer chunks and their end, the call, reflect, action, finish. */
const TAIL_EVENTS = 9;
/** Events of the longest step (a parallel fan-out over three tools). */
const MAX_STEP_EVENTS = 17;
const PROMPT_TOKENS = 900;
const COMPLETION_TOKENS = 40;
const COST_PER_CALL = 0.0004;

/** Appends events in the protocol's envelope: seq from 1, ts a few ms apart (tools take longer). */
class EventLog {
  readonly events: RunEvent[] = [];
  private ts: number;
  step = 0;

  constructor(
    private readonly runId: string,
    startTs: number,
  ) {
    this.ts = startTs;
  }

  add<T extends RunEventType>(type: T, data: RunEventData<T>, gapMs = 3): void {
    this.ts += gapMs;
    const event = {
      runId: this.runId,
      seq: this.events.length + 1,
      ts: this.ts,
      step: this.step,
      type,
      data,
    };
    // the envelope is the protocol's; the tests check every generated event against RunEvent
    this.events.push(event as unknown as RunEvent);
  }
}

/** What every planning call emits before its action: the step, a line of thinking, the call, a reflection. */
function addPlanning(log: EventLog, thought: string): void {
  log.add("step_start", { source: "llm" });
  const action_seq = log.step;
  log.add("llm_stream_chunk", {
    text: thought,
    done: false,
    phase: "thinking",
    channel: "thinking",
    action_seq,
  });
  log.add(
    "llm_stream_chunk",
    { text: "", done: true, phase: "thinking", channel: "thinking", action_seq },
    40,
  );
  log.add("llm_call", {
    purpose: "plan",
    ...LLM,
    promptTokens: PROMPT_TOKENS,
    completionTokens: COMPLETION_TOKENS,
    reasoningTokens: 0,
    costUsd: COST_PER_CALL,
    latencyMs: 45,
  });
  log.add("reasoning", { phase: "reflect", summary: thought });
}

function addToolStep(log: EventLog, tool: string, variant: "ok" | "retry" | "fail"): void {
  const step = log.step;
  const args = { text: `input ${step}` };
  const callId = `step-${step}`;
  addPlanning(log, `Step ${step}: ${tool} comes next in the chain.`);
  log.add("auto_seq_detected_unique", { tool_name: tool, candidate_count: 1 });
  log.add("action", { next_node: tool, args, source: "llm", action_seq: step });
  log.add("reasoning", { phase: "act", summary: `calling ${tool} with {text}` });
  log.add("tool_start", { tool, callId, args, attempt: 1, source: "llm" });
  if (variant === "retry") {
    const message = "The mock timed out.";
    log.add("tool_retry", { tool, callId, attempt: 2, delayMs: 200, error_code: "timeout", message }, 30);
    log.add("tool_start", { tool, callId, args, attempt: 2, source: "llm" }, 200);
  }
  if (variant === "fail") {
    const failure = { node: tool, args, error_code: "tool_error", message: "The mock failed on purpose." };
    log.add("tool_error", { tool, callId, failure, durationMs: 20 }, 20);
    log.add("reasoning", { phase: "obs", summary: `${tool} failed: tool_error` });
    return;
  }
  log.add("tool_end", { tool, callId, observation: { text: `output ${step}` }, durationMs: 25 }, 25);
  log.add("reasoning", { phase: "obs", summary: `${tool} → {text}` });
}

function addParallelStep(log: EventLog, group: { id: string; members: readonly string[] }): void {
  const step = log.step;
  const parallelId = `parallel-${step}`;
  const steps = group.members.map((node) => ({ node, args: { text: `branch of step ${step}` } }));
  addPlanning(log, `Step ${step}: the ${group.id} branches can run at once.`);
  log.add("action", { next_node: "parallel", args: { steps }, source: "llm", action_seq: step });
  log.add("reasoning", { phase: "act", summary: `Running ${group.members.join(", ")} in parallel` });
  log.add("parallel_start", { parallelId, steps, maxParallel: steps.length, groupId: group.id });
  steps.forEach(({ node, args }, branch) =>
    log.add("tool_start", {
      tool: node,
      callId: `${parallelId}:${branch}`,
      args,
      attempt: 1,
      parallelId,
      branch,
    }),
  );
  steps.forEach(({ node }, branch) =>
    log.add(
      "tool_end",
      {
        tool: node,
        callId: `${parallelId}:${branch}`,
        observation: { text: "ok" },
        durationMs: 30,
        parallelId,
        branch,
      },
      10,
    ),
  );
  log.add("parallel_end", {
    parallelId,
    successCount: steps.length,
    failureCount: 0,
    join: { status: "none" },
    durationMs: 60,
  });
  log.add("reasoning", { phase: "obs", summary: `Parallel: ${steps.length} succeeded, 0 failed` });
}

/**
 * A finished run of exactly `shape.events` events, valid against the protocol's RunEvent schema with seq
 * 1 … n and no gap: steps walk the agent's tools in order (plan, action, tool start and end, as the
 * planner emits them), every twelfth step fans out over a parallel group, one step in 25 retries its tool
 * and one in 40 fails it; the last step streams the answer and the run finishes.
 */
export function makeReplayEvents(shape: ReplayRunShape): RunEvent[] {
  if (shape.events < TAIL_EVENTS + 1)
    throw new RangeError(`A replay run needs at least ${TAIL_EVENTS + 1} events.`);
  const log = new EventLog(shape.runId, shape.startTs);
  log.add("run_started", {
    query: "Walk the whole chain",
    agentId: shape.agentId,
    agentVersion: shape.agentVersion,
    llm: LLM,
    tools: [...shape.tools],
  });
  let toolIndex = 0;
  while (log.events.length + MAX_STEP_EVENTS + TAIL_EVENTS < shape.events) {
    const step = log.step;
    const group = shape.groups[Math.floor(step / 12) % Math.max(1, shape.groups.length)];
    if (step % 12 === 11 && group !== undefined) addParallelStep(log, group);
    else {
      const tool = shape.tools[toolIndex % shape.tools.length]!;
      toolIndex += 1;
      addToolStep(log, tool, step % 25 === 7 ? "retry" : step % 40 === 19 ? "fail" : "ok");
    }
    log.step += 1;
  }
  addAnswer(log, shape.events);
  return log.events;
}

/** The final step: its answer streams in as many chunks as it takes to end the run at `total` events. */
function addAnswer(log: EventLog, total: number): void {
  const steps = log.step;
  const action_seq = steps;
  addPlanning(log, "Every tool has run: answering.");
  // after the chunks: the answer's end, the action and run_finished
  const chunks = total - log.events.length - 3;
  const words = Array.from({ length: chunks }, (_, index) => `word${index} `);
  for (const word of words)
    log.add(
      "llm_stream_chunk",
      { text: word, done: false, phase: "answer", channel: "answer", action_seq },
      1,
    );
  log.add("llm_stream_chunk", { text: "", done: true, phase: "answer", channel: "answer", action_seq });
  const answer = words.join("").trim();
  log.add("action", { next_node: "final_response", args: { answer }, source: "llm", action_seq });
  const calls = steps + 1;
  const usage = {
    promptTokens: PROMPT_TOKENS * calls,
    completionTokens: COMPLETION_TOKENS * calls,
    reasoningTokens: 0,
    costUsd: Math.round(COST_PER_CALL * calls * 1e6) / 1e6,
    llmCalls: calls,
  };
  const first = log.events[0]!.ts;
  log.add("run_finished", {
    reason: "answer_complete",
    payload: { answer, artifacts: {}, sources: [], suggested_actions: [], requires_followup: false },
    metadata: { steps, llmCalls: calls, autoSeqSavedCalls: 0, usage, durationMs: 0 },
  });
  const finished = log.events.at(-1) as RunEventOf<"run_finished">;
  finished.data.metadata.durationMs = finished.ts - first;
}

/** The run's totals as its `run_finished` says (for the stored run record). */
export function getFinishedResult(events: readonly RunEvent[]): RunEventOf<"run_finished">["data"] {
  const last = events.at(-1);
  if (last?.type !== "run_finished") throw new Error("The run does not end with run_finished.");
  return last.data;
}
