import type {
  JsonSchema,
  PlannerFinishResult,
  PlannerPauseResult,
  ResumeDecision,
  RunEvent,
} from "@waddle/protocol";
import type { CheckpointSink } from "./run-checkpoint.js";
import type { TaskHost } from "./task-host.js";
import type { RunCalls } from "./call-record.js";

/** Receives every event of a run, in order, `seq` contiguous from 1 (continuing across resumes). */
export type EventSink = (event: RunEvent) => void;

export interface RunOptions {
  /** Generated when absent. */
  runId?: string;
  /** Secrets and opaque objects for tools; never shown to the LLM, never put in events. */
  toolContext?: Record<string, unknown>;
  signal?: AbortSignal;
  onEvent?: EventSink;
  /** Non-secret context the LLM may see (user locale, tenant name, …). */
  contextMeta?: Record<string, unknown>;
  /** Receives a checkpoint after every completed step and in front of every call (see `RunCheckpoint`). */
  onCheckpoint?: CheckpointSink;
  /**
   * Runs the background tasks outside the run, so that they outlive its turn (`TaskHost`); without it a
   * run's unfinished tasks are cancelled when it yields.
   */
  taskHost?: TaskHost;
  /** Records the run's steps and calls, and serves calls from an earlier run's record (forks). */
  calls?: RunCalls;
  /** This run's answer schema, over the planner's (`/v1`'s `response_format`): the answer is an object. */
  answerSchema?: JsonSchema;
}

export interface ResumeOptions {
  decision: ResumeDecision;
  /** Replaces the paused tool's args when `decision` is `edit`. */
  args?: Record<string, unknown>;
  userInput?: string;
  toolContext?: Record<string, unknown>;
  signal?: AbortSignal;
  onEvent?: EventSink;
  onCheckpoint?: CheckpointSink;
  taskHost?: TaskHost;
  calls?: RunCalls;
}

/** How `ReactPlanner.recover` continues a run from a checkpoint. */
export interface RecoverOptions {
  toolContext?: Record<string, unknown>;
  signal?: AbortSignal;
  onEvent?: EventSink;
  onCheckpoint?: CheckpointSink;
  calls?: RunCalls;
  /**
   * The last event seq the host stored for the run (the stopped process may have stored events after the
   * checkpoint): the recovered run's events follow it.
   */
  lastSeq?: number;
  taskHost?: TaskHost;
}

/** A finished run: `answer_complete`, `no_path`, `budget_exhausted`, `max_iters` or `cancelled`. */
export type PlannerFinish = PlannerFinishResult;
/** A paused run; continue it with `planner.resume(resumeToken, {decision})`. */
export type PlannerPause = PlannerPauseResult;
export type PlannerOutcome = PlannerFinish | PlannerPause;
