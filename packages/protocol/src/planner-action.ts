import { z } from "zod";

const JsonRecord = z.record(z.string(), z.unknown());

/** The unified action: every LLM reply is exactly `{next_node, args}` (seed 000/004). */
export const PlannerAction = z.object({
  next_node: z.string().min(1),
  args: JsonRecord.default({}),
});
export type PlannerAction = z.infer<typeof PlannerAction>;

export const MergeStrategy = z.enum(["HUMAN_GATED", "APPEND", "REPLACE"]);
export type MergeStrategy = z.infer<typeof MergeStrategy>;

export const GroupReport = z.enum(["all", "any", "none"]);
export type GroupReport = z.infer<typeof GroupReport>;

/** Args of `final_response`; `answer` is streamed to the user. `raw_answer` is the legacy synonym. */
export const FinalResponseArgs = z.looseObject({
  answer: z.string().optional(),
  raw_answer: z.string().optional(),
  artifacts: JsonRecord.optional(),
  sources: z.array(JsonRecord).optional(),
  suggested_actions: z.array(z.union([JsonRecord, z.string()])).optional(),
  confidence: z.number().min(0).max(1).optional(),
  language: z.string().max(16).optional(),
  requires_followup: z.boolean().optional(),
});
export type FinalResponseArgs = z.infer<typeof FinalResponseArgs>;

export const ParallelStep = z.object({
  node: z.string().min(1),
  args: JsonRecord.default({}),
});
export type ParallelStep = z.infer<typeof ParallelStep>;

export const ParallelJoin = z.object({
  node: z.string().min(1),
  args: JsonRecord.default({}),
  /** join arg name → injection source; checked against `INJECT_SOURCES` by the planner. */
  inject: z.record(z.string(), z.string()).optional(),
});
export type ParallelJoin = z.infer<typeof ParallelJoin>;

/** Args of `parallel` (synonym `plan`). */
export const ParallelArgs = z.object({
  steps: z.array(ParallelStep).min(1),
  join: ParallelJoin.optional(),
});
export type ParallelArgs = z.infer<typeof ParallelArgs>;

const TaskCommonArgs = {
  name: z.string().min(1).max(200),
  merge_strategy: MergeStrategy.optional(),
  group: z.string().min(1).max(200).optional(),
  group_id: z.string().min(1).max(200).optional(),
  group_sealed: z.boolean().optional(),
  group_report: GroupReport.optional(),
  group_merge_strategy: MergeStrategy.optional(),
  retain_turn: z.boolean().optional(),
};

/** Args of `task.subagent`: a background agent runs `query` and returns a ContextCapsule. */
export const TaskSubagentArgs = z.object({ ...TaskCommonArgs, query: z.string().min(1) });
export type TaskSubagentArgs = z.infer<typeof TaskSubagentArgs>;

/** Args of `task.tool`: one tool run as a background job. */
export const TaskToolArgs = z.object({
  ...TaskCommonArgs,
  tool: z.string().min(1),
  tool_args: JsonRecord.default({}),
});
export type TaskToolArgs = z.infer<typeof TaskToolArgs>;

/** What a subagent returns to its parent instead of its transcript (seed 002). */
export const ContextCapsule = z.object({
  goal: z.string(),
  keyFindings: z.array(z.string()),
  artifacts: z.array(z.object({ type: z.string(), ref: z.string(), summary: z.string() })),
  nextActions: z.array(z.string()).optional(),
  planSnapshot: z.unknown().optional(),
});
export type ContextCapsule = z.infer<typeof ContextCapsule>;

/** The typed final payload of a finished run. */
export const FinalPayload = z.object({
  answer: z.string(),
  artifacts: JsonRecord.default({}),
  sources: z.array(JsonRecord).default([]),
  suggested_actions: z.array(z.union([JsonRecord, z.string()])).default([]),
  confidence: z.number().min(0).max(1).optional(),
  language: z.string().optional(),
  requires_followup: z.boolean().default(false),
  /** Keys of the model's `final_response` args that have no field here, kept as the model gave them. */
  extra: JsonRecord.optional(),
  /** The answer as an object, valid against the run's answer schema (`answer` is then its JSON text). */
  data: JsonRecord.optional(),
  /**
   * Set when the answer was not written as asked but recovered by the planner (prose, the answer fragment
   * of a malformed reply): `rule` names how, as in the run's `action_salvaged` events.
   */
  salvaged: z.object({ rule: z.string(), detail: z.string().optional() }).optional(),
});
export type FinalPayload = z.infer<typeof FinalPayload>;

/** `failure` observation sent back to the LLM when a tool fails after its retries (seed 001, phase C). */
export const ToolFailure = z.object({
  node: z.string(),
  args: z.unknown(),
  error_code: z.string(),
  message: z.string(),
  suggestion: z.string().optional(),
});
export type ToolFailure = z.infer<typeof ToolFailure>;

export const FinishReason = z.enum([
  "answer_complete",
  "no_path",
  "budget_exhausted",
  "max_iters",
  "cancelled",
  "stuck",
]);
export type FinishReason = z.infer<typeof FinishReason>;

export const PauseReason = z.enum([
  "approval_required",
  "await_input",
  "external_event",
  "constraints_conflict",
  "stuck",
  "guard",
]);
export type PauseReason = z.infer<typeof PauseReason>;

export const Usage = z.object({
  promptTokens: z.int().nonnegative().default(0),
  completionTokens: z.int().nonnegative().default(0),
  reasoningTokens: z.int().nonnegative().default(0),
  costUsd: z.number().nonnegative().default(0),
  llmCalls: z.int().nonnegative().default(0),
});
export type Usage = z.infer<typeof Usage>;

/**
 * A parallel join whose tool ran into an error (its args did not validate, or it failed): seed 004 records
 * it in the parallel observation and the run goes on, so the outcome lists it rather than hide it behind
 * `answer_complete`. `recovered`: a later step ran the same tool successfully.
 */
export const FailedJoin = z.object({
  /** The trajectory step of the `parallel` action (the `step` of its `parallel_end` event). */
  step: z.int().nonnegative(),
  node: z.string(),
  errorCode: z.string(),
  message: z.string(),
  recovered: z.boolean(),
});
export type FailedJoin = z.infer<typeof FailedJoin>;

/** Facts about a run that the caller may want besides the payload. */
export const RunMetadata = z.object({
  steps: z.int().nonnegative(),
  llmCalls: z.int().nonnegative(),
  autoSeqSavedCalls: z.int().nonnegative().default(0),
  usage: Usage,
  durationMs: z.number().nonnegative(),
  /** Joins that failed during the run; absent when none did. */
  failedJoins: z.array(FailedJoin).optional(),
});
export type RunMetadata = z.infer<typeof RunMetadata>;

export const PlannerFinishResult = z.object({
  kind: z.literal("finish"),
  reason: FinishReason,
  payload: FinalPayload,
  metadata: RunMetadata,
});
export type PlannerFinishResult = z.infer<typeof PlannerFinishResult>;

export const PlannerPauseResult = z.object({
  kind: z.literal("pause"),
  reason: PauseReason,
  payload: JsonRecord,
  resumeToken: z.string().min(1),
  metadata: RunMetadata.optional(),
});
export type PlannerPauseResult = z.infer<typeof PlannerPauseResult>;

/** What `run` and `resume` return, as stored by the server and shown by the designer. */
export const PlannerResult = z.discriminatedUnion("kind", [PlannerFinishResult, PlannerPauseResult]);
export type PlannerResult = z.infer<typeof PlannerResult>;

export const ResumeDecision = z.enum(["approve", "reject", "edit"]);
export type ResumeDecision = z.infer<typeof ResumeDecision>;
