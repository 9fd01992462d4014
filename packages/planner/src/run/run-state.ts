import type {
  ActionSource,
  FinalPayload,
  FinishReason,
  JsonSchema,
  PlannerAction,
  ReasoningEffort,
  ToolFailure,
} from "@waddle/protocol";
import type { PlannerViewStep } from "./planner-view.js";
import type { TrajectorySummary } from "./trajectory-summary.js";
import type { PendingMerge } from "./pending-merge.js";
import type { ToolResumeInput } from "../catalog/tool.js";
import type { TodoState } from "./todo-state.js";

/**
 * One step of the trajectory. A superset of `PlannerViewStep`, so that the planner view shares the
 * trajectory array instead of copying it. Plain JSON: pause/resume saves it as is.
 */
export interface TrajectoryStep extends PlannerViewStep {
  index: number;
  /** Set when the action was refused before running (unknown tool, disallowed, args never valid). */
  refused?: { code: string; message: string };
  startedAt: number;
  durationMs: number;
  /**
   * A step the planner added itself (task results, a person's input): the LLM reads it as one user
   * message, with no action of its own before it.
   */
  note?: true;
  /**
   * What the model reads beside the observation (`StepRemarks`): alternates it sent that did not run,
   * parallel steps dropped as malformed, a person's note on an approval.
   */
  remarks?: StepRemarks;
  /**
   * The model's verbatim reply for this step, when a fork rebuilt the state from a record: echoed in the
   * history as the original run had it, so that the fork's requests equal the parent's.
   */
  reply?: string;
}

/** Remarks on a step, by their wire name; rendered next to `observation` or `failure`. */
export interface StepRemarks {
  /** Other actions of the reply (a JSON array): never run unasked. */
  alternates_not_run?: unknown[];
  /** Parallel steps that were not calls (no node, not an object). */
  dropped_steps?: unknown[];
  /** "approved by a person, note: …" */
  approval?: string;
}

/** An action that did not come from the LLM (auto-seq, a resumed pause): validated like any other. */
export interface QueuedAction {
  action: PlannerAction;
  source: Exclude<ActionSource, "llm">;
  /** Why it was queued, for events (e.g. the auto-seq detection). */
  reason?: string;
  /**
   * A call a person already approved (resume with `approve`/`edit`): the approval gate lets it through.
   * On a task opcode: the spawn was confirmed.
   */
  approved?: boolean;
  /** A tool that paused itself runs again with the person's answer. */
  resumeInput?: ToolResumeInput;
  /** Shown to the model beside the call's observation (a person's note on an approval). */
  remarks?: StepRemarks;
  /** A person's note on their approval: the tool's `approvalNote`. */
  approvalNote?: string;
}

/** An effort the LLM client accepts: what the reasoning router picks for a run (`RunState.route`). */
export type ConcreteReasoningEffort = Exclude<ReasoningEffort, "auto">;

export interface RunUsage {
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  /** USD of LLM calls plus tools' `costUsd`. */
  costUsd: number;
  llmCalls: number;
}

/**
 * Everything a run needs to continue: plain JSON (no functions, no class instances), times as absolute
 * clock values, so that pause/resume can save and restore it through a `StateStore`.
 */
export interface RunState {
  version: 1;
  runId: string;
  query: string;
  contextMeta?: Record<string, unknown>;
  steps: TrajectoryStep[];
  /** Loop iterations so far (each produced one step or one refused action); bounded by `maxIters`. */
  iteration: number;
  /** Tool calls executed (branches and joins included); bounded by `hopBudget`. */
  hops: number;
  usage: RunUsage;
  /** Last event `seq` emitted; the next event gets `seq + 1`, across resumes too. */
  seq: number;
  /** Actions proposed so far; the `action_seq` of the next one. */
  actionSeq: number;
  startedAt: number;
  /** Absolute clock time after which the run ends with `budget_exhausted`. */
  deadlineAt?: number;
  consecutiveArgFailures: number;
  /** Soft-hint corrections already spent (`ordering_hints:<skipped tool>`, `prefer_nodes`): one each. */
  corrections: string[];
  /** Actions waiting to run before the LLM is asked again (auto-seq, resume). */
  pendingActions: QueuedAction[];
  autoSeqSavedCalls: number;
  /** The latest successful observation, and the latest per tool (what tools see in `observations`). */
  lastObservation?: unknown;
  observationsByTool: Record<string, unknown>;
  /** `write_todos` state, when `todos.enabled`. */
  todos?: TodoState;
  /** Set once the history was compacted: `summary` stands in for steps `[0, coveredSteps)` in the prompt. */
  summary?: { summary: TrajectorySummary; coveredSteps: number };
  /** The reasoning router's choice (`reasoningEffort: "auto"`), made once per run. */
  route?: { effort: ConcreteReasoningEffort; modelId?: string };
  /** A person chose to go on despite the hint conflicts found before the first step. */
  conflictsAcknowledged?: boolean;
  /** HUMAN_GATED task results waiting for a person's approve or reject. */
  heldMerges?: PendingMerge[];
  /** Background tasks spawned so far (across resumes): ids and the `maxPerRun` limit count from it. */
  tasksSpawned?: number;
  /** Last number used in a task, group or merge id of this run. */
  taskIdCounter?: number;
  /**
   * The keys (never the values) of the toolContext the run was given: a resume that does not bring them
   * back is refused instead of running tools without them.
   */
  toolContextKeys?: string[];
  /** The answer's JSON Schema (the agent's `answerSchema`, or the run's own): the answer is an object. */
  answerSchema?: JsonSchema;
  /** Answers refused so far for not fitting `answerSchema`; bounded by `repairAttempts`. */
  answerRepairs?: number;
  /** The latest auto-executed tool and the payload fingerprint it ran on (docs/auto-seq.md). */
  autoSeqLast?: { tool: string; fingerprint: string };
  /** The stuck-run breaker's place (docs/guides/stuck-runs.md): steps before `since` no longer count. */
  stuck?: { since: number; nudged?: true };
  /** What a guard's pause holds back until a person decides (docs/guides/guardrails.md). */
  guardHold?: GuardHold;
}

/** A query, a tool result or an answer a guard holds for a person; kept in the paused state only. */
export type GuardHold =
  | { stage: "input" }
  | {
      stage: "tool_result";
      action: PlannerAction;
      source: ActionSource;
      observation: unknown;
      startedAt: number;
      endedAt: number;
      reply?: string;
    }
  | { stage: "output"; reason: FinishReason; payload: FinalPayload };

export function createRunState(input: {
  runId: string;
  query: string;
  contextMeta?: Record<string, unknown>;
  startedAt: number;
  deadlineS?: number;
}): RunState {
  const state: RunState = {
    version: 1,
    runId: input.runId,
    query: input.query,
    steps: [],
    iteration: 0,
    hops: 0,
    usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0, llmCalls: 0 },
    seq: 0,
    actionSeq: 0,
    startedAt: input.startedAt,
    consecutiveArgFailures: 0,
    corrections: [],
    pendingActions: [],
    autoSeqSavedCalls: 0,
    observationsByTool: {},
  };
  if (input.contextMeta !== undefined) state.contextMeta = input.contextMeta;
  if (input.deadlineS !== undefined) state.deadlineAt = input.startedAt + input.deadlineS * 1000;
  return state;
}

/** Failure observation for a step: what the LLM reads as `{"failure": …}` (docs/messages-and-prompt.md). */
export function createFailure(input: {
  node: string;
  args: unknown;
  errorCode: string;
  message: string;
  suggestion?: string;
}): ToolFailure {
  const failure: ToolFailure = {
    node: input.node,
    args: input.args,
    error_code: input.errorCode,
    message: input.message,
  };
  if (input.suggestion !== undefined) failure.suggestion = input.suggestion;
  return failure;
}
