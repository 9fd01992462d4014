import type {
  FailedJoin,
  GuardApplied,
  GuardFinding,
  GuardStage,
  GuardVerdict,
  PendingPause,
  RunEvent,
  RunStatus,
} from "@waddle/protocol";
import type { TransitionProvenance } from "../../model/transition-provenance.js";

/**
 * The view of one run that the canvas and the run panel draw: built only by folding the run's events
 * (`applyRunEvents`), the same for a live run and a replay. Plain data; never mutated once returned.
 */

/** What a tool node shows during a run or replay (`data-run-state` on the node). */
export type NodeRunState =
  | "idle"
  | "queued"
  | "running"
  | "succeeded"
  | "failed"
  | "retrying"
  | "skipped"
  | "awaiting_approval"
  /** A person rejected its call at a pause: not a failure of the tool, and not an error. */
  | "rejected";

export interface NodeRunView {
  state: NodeRunState;
  /** Tool calls started (attempts of one call count once). */
  calls: number;
  failures: number;
  /** Sum of finished calls' durations. */
  totalMs: number;
  /** Attempt of the call in flight when retrying (1 = first). */
  attempt: number;
  /** Calls of this tool in flight now (a tool can run in two parallel branches at once). */
  active?: number;
  /** The latest call of this tool, for the step detail. */
  lastCallId: string | null;
  /** `seq` of the event that last changed this node (lets a node pulse on change). */
  changedSeq: number;
  /** Its latest call is part of a fork's copied prefix (`RunEvent.replayed`): shown dimmed. */
  replayed?: boolean;
  /** Its latest call was served from the parent run's record (`RunEvent.cached`): a fork reused it. */
  cached?: boolean;
  /** Its latest call's result is a value a person wrote when forking (`tool_start`'s `edited`). */
  edited?: boolean;
  /** The stuck-run breaker found it going in circles (`stuck_detected`): what repeated, what it did. */
  stuck?: { pattern: string; count: number; action: string; message: string };
  /** The tool_result guards that acted on its results (`guard_verdict` with an action): the node's shield. */
  guards?: readonly GuardMark[];
}

/** One guard's decisions at one place of a run (a tool's results, the query or the answer). */
export interface GuardMark {
  guard: string;
  on: GuardStage;
  /** The check's kind (`pii`, `llm`, …). */
  check: string;
  /** The latest decision and what it did. */
  verdict: GuardVerdict;
  action: GuardApplied;
  /** The latest failure's or error's message (never the matched text). */
  message?: string;
  /** Decisions made here, and how many of them acted (anything but a pass). */
  decisions: number;
  acted: number;
  /** What it found, added up over its decisions here. */
  findings: readonly GuardFinding[];
  seq: number;
}

/** Output (or input) guards checking while the answer is held back: those yet to decide. */
export interface GuardCheckingView {
  on: GuardStage;
  guards: readonly string[];
  pending: readonly string[];
  seq: number;
}

/** One move from a tool (or the start, `from: null`) to the next tool. */
export interface TransitionView {
  seq: number;
  step: number;
  from: string | null;
  to: string;
  provenance: TransitionProvenance;
  /** The spec edge it follows (`edges[].id`), or null: drawn as a temporary arc. */
  edgeId: string | null;
}

/** What a spec edge shows during a run: how often transitions took it, and the latest one. */
export interface EdgeRunView {
  count: number;
  /** The latest transition along it (its provenance picks the animation; `seq` restarts it). */
  last: TransitionView;
}

/** One call of a tool: args, result or failure, as the events' previews carry them. */
export interface CallView {
  callId: string;
  tool: string;
  step: number;
  startSeq: number;
  startTs: number;
  args: unknown;
  attempt: number;
  status: "running" | "retrying" | "succeeded" | "failed" | "awaiting_approval" | "skipped" | "rejected";
  observation?: unknown;
  failure?: { code: string; message: string; [key: string]: unknown };
  durationMs?: number;
  source?: string;
  parallelId?: string;
  branch?: number;
  join?: boolean;
}

/** A parallel fan-out: branch progress and the join's outcome. */
export interface ParallelView {
  parallelId: string;
  groupId: string | null;
  step: number;
  nodes: string[];
  total: number;
  done: number;
  failed: number;
  joinNode: string | null;
  joinStatus: "pending" | "ok" | "skipped" | "error" | "none";
  joinReason?: string;
  /** Why the join failed, when `joinStatus` is `error`. */
  joinMessage?: string;
  finished: boolean;
  /** The tools the fan-out started from (the previous step's), for the fan-out transitions. */
  from?: readonly string[];
}

export type TimelineKind =
  | "start"
  | "plan"
  | "act"
  | "obs"
  | "reflect"
  | "action"
  | "llm"
  | "tool"
  | "tool_error"
  | "retry"
  | "repair"
  | "constraint"
  | "summary"
  | "parallel"
  | "auto_seq"
  | "todos"
  | "task"
  | "pause"
  | "stuck"
  | "guard"
  | "resumed"
  | "finish"
  | "error";

/** A person's decision on a pause, as its timeline entry shows it (`data-status`). */
export type DecisionStatus = "approved" | "edited" | "rejected";

/** One line of the run panel's step timeline. */
export interface TimelineEntry {
  seq: number;
  step: number;
  ts: number;
  kind: TimelineKind;
  title: string;
  detail?: string;
  /** The tool it concerns: clicking the entry selects that node. */
  tool?: string;
  callId?: string;
  tone?: "neutral" | "good" | "warn" | "bad";
  /** A fork's prefix, copied from the parent run (`RunEvent.replayed`): shown dimmed. */
  replayed?: true;
  /** Served from the parent's record (`RunEvent.cached`). */
  cached?: true;
  /** A value a person wrote when forking (an edited observation or reply). */
  edited?: true;
  /** A decision's entry: what the person decided. */
  status?: DecisionStatus;
  /** What the person typed with the decision (`resumed.note`). */
  note?: string;
}

/** Cost and time of one step (a step = one planner iteration). */
export interface StepView {
  step: number;
  startSeq: number;
  startTs: number;
  endTs: number;
  llmCalls: number;
  /** Its LLM calls' tokens, counted as the run's figure is (`getRunTokens`). */
  tokens: number;
  costUsd: number;
  /** Sum of the step's LLM call latencies. */
  llmMs?: number;
  /** Who chose the step's action (`step_start.source`). */
  source?: string | null;
  /** The step's action: a tool, `parallel`, `final_response`, a task opcode (`action.next_node`). */
  action?: string | null;
  tools: string[];
}

export interface RunTotals {
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  costUsd: number;
  /** Tool calls made (what a hop budget counts). */
  hops: number;
  /** Steps done: `getStepsAfter` of @waddle/protocol (the one definition of a step, shared with the server). */
  steps: number;
  autoSeqSaved: number;
  /** ts of the last event minus ts of the first. */
  elapsedMs: number;
}

export interface TaskView {
  taskId: string;
  name: string;
  mode: string;
  status: string;
  tool?: string;
  result?: unknown;
  error?: { code: string; message: string };
}

/** Where the fold stands between batches: what the next events need (not for display). */
export interface RunCursor {
  /** The tools the next transition starts from: the last tool, or the branches/join of a parallel. */
  lastTools: readonly string[];
  /** `action_seq` whose stream `answer` / `thinking` hold: a new one starts them over. */
  answerActionSeq: number | null;
  thinkingActionSeq: number | null;
  /** The last `action` event's node and source. */
  lastAction: { nextNode: string; source: string } | null;
  /** `auto_seq_executed` events seen. */
  autoSeqExecuted: number;
}

/** A pause waiting for a person: the tool and args it proposes (approval pauses carry them in the payload). */
export type PauseView = PendingPause & {
  tool: string | null;
  args: unknown;
  callId: string | null;
  /** The paused tool's node state before the pause, restored on `resumed`. */
  nodeStateBefore: NodeRunState | null;
};

export interface RunView {
  runId: string;
  status: RunStatus;
  lastSeq: number;
  firstTs: number | null;
  lastTs: number | null;
  query: string;
  agentId: string | null;
  agentVersion: number | null;
  llm: { provider: string; model: string; offline: boolean } | null;
  nodes: Readonly<Record<string, NodeRunView>>;
  calls: Readonly<Record<string, CallView>>;
  callOrder: readonly string[];
  transitions: readonly TransitionView[];
  /** Transitions by the spec edge they took (`edges[].id`, or `join:<groupId>`). */
  edges: Readonly<Record<string, EdgeRunView>>;
  parallels: Readonly<Record<string, ParallelView>>;
  answer: string;
  answerDone: boolean;
  /** The thinking channel of the latest LLM call that streamed one. */
  thinking: string;
  thinkingDone: boolean;
  todos: readonly { id: string; content: string; status: "pending" | "in_progress" | "completed" }[];
  timeline: readonly TimelineEntry[];
  steps: readonly StepView[];
  totals: RunTotals;
  tasks: Readonly<Record<string, TaskView>>;
  pause: PauseView | null;
  finish: {
    reason: string;
    answer: string | null;
    payload: unknown;
    /** Parallel joins that failed during the run (the run may still end `answer_complete`). */
    failedJoins: readonly FailedJoin[];
  } | null;
  error: { code: string; message: string } | null;
  /** The guards that decided on the query and on the answer (the shields beside them). */
  guards: { input: readonly GuardMark[]; output: readonly GuardMark[] };
  /** Guards checking the answer now (`guard_checking` until all decided or the run ended), else null. */
  guardChecking: GuardCheckingView | null;
  cursor: RunCursor;
}

export type { RunEvent };
