import { z } from "zod";
import {
  AutoSeqDetectedAmbiguousEvent,
  AutoSeqDetectedNoneEvent,
  AutoSeqDetectedUniqueEvent,
  AutoSeqExecutedEvent,
  AutoSeqSkippedEvent,
} from "./auto-seq-events.js";
import { SIDE_EFFECTS } from "./names.js";
import { PauseEvent, ResumedEvent } from "./pause-events.js";
import { FinalPayload, FinishReason, MergeStrategy, RunMetadata, ToolFailure } from "./planner-action.js";
import { createRunEventEnvelope } from "./run-event-envelope.js";
import { StuckDetectedEvent } from "./stuck.js";
import { GuardCheckingEvent, GuardVerdictEvent } from "./guards.js";

export { getResumeNote, PauseEvent, RESUME_NOTE_MAX_CHARS, ResumedEvent } from "./pause-events.js";

/** A JSON value cut down to a bounded size; truncated strings end with `…[+N chars]`. */
export const Preview = z.unknown();

const LlmRef = z.object({ provider: z.string(), model: z.string(), offline: z.boolean() });

/** Where an action came from: the LLM, auto-seq, a corrective re-ask, or a resumed pause. */
export const ActionSource = z.enum(["llm", "auto_seq", "resume", "system"]);
export type ActionSource = z.infer<typeof ActionSource>;

const TodoItem = z.object({
  id: z.string(),
  content: z.string(),
  status: z.enum(["pending", "in_progress", "completed"]),
});

export const TaskStatus = z.enum(["queued", "running", "completed", "failed", "cancelled", "timed_out"]);
export type TaskStatus = z.infer<typeof TaskStatus>;

export const RunStartedEvent = createRunEventEnvelope(
  "run_started",
  z.looseObject({
    query: z.string(),
    agentId: z.string().optional(),
    agentVersion: z.int().optional(),
    llm: LlmRef,
    tools: z.array(z.string()),
  }),
);
export const StepStartEvent = createRunEventEnvelope("step_start", z.looseObject({ source: ActionSource }));
export const LlmCallEvent = createRunEventEnvelope(
  "llm_call",
  z.looseObject({
    purpose: z.enum([
      "plan",
      "repair",
      "arg_fill",
      "correction",
      "summarize",
      "route",
      "tool",
      "subagent",
      "answer",
      "guard",
    ]),
    provider: z.string(),
    model: z.string(),
    offline: z.boolean(),
    promptTokens: z.int().nonnegative(),
    completionTokens: z.int().nonnegative(),
    reasoningTokens: z.int().nonnegative(),
    costUsd: z.number().nonnegative(),
    latencyMs: z.number().nonnegative(),
    reasoningEffort: z.string().optional(),
    /** The model asked for, when the endpoint answered with another (`model` is the one that answered). */
    requestModel: z.string().optional(),
    /** Why the reply ended (`stop`, `length`, `tool_calls`, …), when the endpoint says. */
    finishReason: z.string().optional(),
  }),
);
export const LlmStreamChunkEvent = createRunEventEnvelope(
  "llm_stream_chunk",
  z.looseObject({
    text: z.string(),
    done: z.boolean(),
    phase: z.enum(["args", "answer", "thinking"]),
    channel: z.enum(["answer", "thinking"]),
    action_seq: z.int().nonnegative(),
  }),
);
export const ActionEvent = createRunEventEnvelope(
  "action",
  z.looseObject({
    next_node: z.string(),
    args: Preview,
    source: ActionSource,
    action_seq: z.int().nonnegative(),
  }),
);
export const ReasoningEvent = createRunEventEnvelope(
  "reasoning",
  z.looseObject({ phase: z.enum(["plan", "act", "obs", "reflect"]), summary: z.string() }),
);
export const ToolStartEvent = createRunEventEnvelope(
  "tool_start",
  z.looseObject({
    tool: z.string(),
    callId: z.string(),
    args: Preview,
    attempt: z.int().positive(),
    parallelId: z.string().optional(),
    branch: z.int().nonnegative().optional(),
    join: z.boolean().optional(),
    source: ActionSource.optional(),
  }),
);
export const ToolEndEvent = createRunEventEnvelope(
  "tool_end",
  z.looseObject({
    tool: z.string(),
    callId: z.string(),
    observation: Preview,
    durationMs: z.number().nonnegative(),
    parallelId: z.string().optional(),
    branch: z.int().nonnegative().optional(),
    join: z.boolean().optional(),
  }),
);
export const ToolErrorEvent = createRunEventEnvelope(
  "tool_error",
  z.looseObject({
    tool: z.string(),
    callId: z.string(),
    failure: ToolFailure,
    durationMs: z.number().nonnegative(),
    parallelId: z.string().optional(),
    branch: z.int().nonnegative().optional(),
    join: z.boolean().optional(),
  }),
);
/**
 * Progress a running tool reported (an MCP server's `notifications/progress`, or `ctx.reportProgress`):
 * `progress` rises, `total` when known, and a short message. Bounded per call; never holds results.
 */
export const ToolProgressEvent = createRunEventEnvelope(
  "tool_progress",
  z.looseObject({
    tool: z.string(),
    callId: z.string(),
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional(),
  }),
);
export const ToolRetryEvent = createRunEventEnvelope(
  "tool_retry",
  z.looseObject({
    tool: z.string(),
    callId: z.string(),
    attempt: z.int().positive(),
    delayMs: z.number().nonnegative(),
    error_code: z.string(),
    message: z.string(),
  }),
);
export const ParallelStartEvent = createRunEventEnvelope(
  "parallel_start",
  z.looseObject({
    parallelId: z.string(),
    steps: z.array(z.looseObject({ node: z.string(), args: Preview })),
    maxParallel: z.int().positive(),
    join: z.looseObject({ node: z.string() }).optional(),
    groupId: z.string().optional(),
  }),
);
export const ParallelEndEvent = createRunEventEnvelope(
  "parallel_end",
  z.looseObject({
    parallelId: z.string(),
    successCount: z.int().nonnegative(),
    failureCount: z.int().nonnegative(),
    join: z.looseObject({
      status: z.enum(["ok", "skipped", "error", "none"]),
      node: z.string().optional(),
      reason: z.string().optional(),
      /** Why the join failed, when `status` is `error`. */
      message: z.string().optional(),
    }),
    durationMs: z.number().nonnegative(),
  }),
);
export const TodosUpdatedEvent = createRunEventEnvelope(
  "todos_updated",
  z.looseObject({
    revision: z.int().positive(),
    todos: z.array(TodoItem),
    focus: z.string().optional(),
    note: z.string().optional(),
  }),
);
export const RepairAttemptEvent = createRunEventEnvelope(
  "repair_attempt",
  z.looseObject({
    kind: z.enum(["parse", "args", "arg_fill", "unknown_tool", "opcode_args", "output", "answer_schema"]),
    attempt: z.int().positive(),
    error_code: z.string(),
    message: z.string(),
    node: z.string().optional(),
  }),
);
/**
 * Something the planner recovered from a model's reply instead of refusing it: `rule` names how (`fenced`,
 * `legacy_terminal`, `bare_answer`, `action_array`, `prose_answer`, …), `detail` says what, in a sentence.
 * A salvage never runs what the model did not mean (a cut-off action, a placeholder arg).
 */
export const ActionSalvagedEvent = createRunEventEnvelope(
  "action_salvaged",
  z.looseObject({
    rule: z.string(),
    detail: z.string().optional(),
    node: z.string().optional(),
    action_seq: z.int().nonnegative().optional(),
  }),
);
export const ConstraintViolationEvent = createRunEventEnvelope(
  "constraint_violation",
  z.looseObject({
    constraint: z.enum([
      "deadline",
      "hop_budget",
      "token_budget",
      "cost_budget",
      "max_iters",
      "disallow_nodes",
      "sequential_only",
      "max_parallel",
      "ordering_hints",
      "prefer_nodes",
      "auth_scopes",
      "auto_seq_edge",
      "tasks",
    ]),
    message: z.string(),
    node: z.string().optional(),
    enforced: z.enum(["rejected", "capped", "rewritten", "corrected", "finished", "paused"]),
  }),
);
export const SummaryCompactedEvent = createRunEventEnvelope(
  "summary_compacted",
  z.looseObject({
    before_tokens: z.int().nonnegative(),
    after_tokens: z.int().nonnegative(),
    method: z.enum(["rule_based", "llm", "rule_based_fallback"]),
    summary_note: z.string().optional(),
  }),
);
export const TaskSpawnedEvent = createRunEventEnvelope(
  "task_spawned",
  z.looseObject({
    taskId: z.string(),
    name: z.string(),
    mode: z.enum(["subagent", "tool"]),
    mergeStrategy: MergeStrategy,
    groupId: z.string().optional(),
    group: z.string().optional(),
    tool: z.string().optional(),
  }),
);
export const TaskUpdateEvent = createRunEventEnvelope(
  "task_update",
  z.looseObject({
    taskId: z.string(),
    status: TaskStatus,
    result: Preview.optional(),
    error: z.looseObject({ code: z.string(), message: z.string() }).optional(),
    groupId: z.string().optional(),
  }),
);
export const TaskGroupReportEvent = createRunEventEnvelope(
  "task_group_report",
  z.looseObject({
    groupId: z.string(),
    name: z.string(),
    report: z.enum(["all", "any"]),
    mergeStrategy: MergeStrategy,
    tasks: z.array(
      z.looseObject({ taskId: z.string(), name: z.string(), status: TaskStatus, result: Preview }),
    ),
  }),
);
export const RunFinishedEvent = createRunEventEnvelope(
  "run_finished",
  z.looseObject({ reason: FinishReason, payload: FinalPayload, metadata: RunMetadata }),
);
export const RunFailedEvent = createRunEventEnvelope(
  "run_failed",
  z.looseObject({
    error: z.looseObject({ code: z.string(), message: z.string() }),
    /** Who ended it, when someone did: `timeout` for a pause the server failed at its due time. */
    actor: z.string().optional(),
  }),
);
/** Written by the server for a run that was `running` when its process died. */
export const RunInterruptedEvent = createRunEventEnvelope(
  "run_interrupted",
  z.looseObject({ message: z.string() }),
);
/**
 * A run whose worker stopped mid-run goes on elsewhere from its last checkpoint (queue mode). Events the
 * stopped worker stored after `checkpointSeq` stay; `interrupted` names the call that was in flight, and
 * `rerun` says whether it runs again (pure or read) or waits for a person (write, external, stateful).
 */
export const RunRecoveredEvent = createRunEventEnvelope(
  "run_recovered",
  z.looseObject({
    message: z.string(),
    checkpointSeq: z.int().nonnegative(),
    interrupted: z.looseObject({ tool: z.string(), sideEffects: z.enum(SIDE_EFFECTS) }).optional(),
    rerun: z.boolean().optional(),
  }),
);

export const RunEvent = z.discriminatedUnion("type", [
  RunStartedEvent,
  StepStartEvent,
  LlmCallEvent,
  LlmStreamChunkEvent,
  ActionEvent,
  ReasoningEvent,
  ToolStartEvent,
  ToolEndEvent,
  ToolErrorEvent,
  ToolRetryEvent,
  ToolProgressEvent,
  ParallelStartEvent,
  ParallelEndEvent,
  TodosUpdatedEvent,
  RepairAttemptEvent,
  ActionSalvagedEvent,
  ConstraintViolationEvent,
  SummaryCompactedEvent,
  PauseEvent,
  ResumedEvent,
  TaskSpawnedEvent,
  TaskUpdateEvent,
  TaskGroupReportEvent,
  AutoSeqDetectedUniqueEvent,
  AutoSeqDetectedAmbiguousEvent,
  AutoSeqDetectedNoneEvent,
  AutoSeqSkippedEvent,
  AutoSeqExecutedEvent,
  StuckDetectedEvent,
  GuardVerdictEvent,
  GuardCheckingEvent,
  RunFinishedEvent,
  RunFailedEvent,
  RunInterruptedEvent,
  RunRecoveredEvent,
]);
export type RunEvent = z.infer<typeof RunEvent>;
export type RunEventType = RunEvent["type"];
/** The event of one type, e.g. `RunEventOf<"tool_end">`. */
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;
/** The data of one event type, e.g. `RunEventData<"tool_end">`. */
export type RunEventData<T extends RunEventType> = RunEventOf<T>["data"];

export const RUN_EVENT_TYPES = RunEvent.options.map((option) => option.shape.type.value) as RunEventType[];

/** Events after which a run emits nothing more (a `pause` is not terminal: `resumed` may follow). */
export const TERMINAL_EVENT_TYPES: ReadonlySet<RunEventType> = new Set([
  "run_finished",
  "run_failed",
  "run_interrupted",
]);
