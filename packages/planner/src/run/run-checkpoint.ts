import { ActionSource, PlannerAction, SIDE_EFFECTS, type SideEffect } from "@waddle/protocol";
import { z } from "zod";
import type { ToolResumeInput } from "../catalog/tool.js";
import { PlannerError } from "../errors/planner-error.js";
import { RunStateShape } from "./paused-state.js";
import type { RunState } from "./run-state.js";

export const RUN_CHECKPOINT_FORMAT = "waddle.run-checkpoint";

/** The call a checkpoint was taken in front of: it had been decided and was about to run. */
export interface InFlightAction {
  action: PlannerAction;
  source: ActionSource;
  /** The tool, or the tools of a parallel plan, joined with ", ". */
  tool: string;
  /** The most consequential side effect among the call's tools (a task spawn counts as `stateful`). */
  sideEffects: SideEffect;
  approved?: true;
  resumeInput?: ToolResumeInput;
}

/**
 * A run's state between two steps, as plain JSON: taken after every completed step, and in front of every
 * call with `inFlight` set, so that a host whose process died can continue the run elsewhere
 * (`ReactPlanner.recover`) without repeating a completed step's LLM or tool call.
 */
export interface RunCheckpoint {
  format: typeof RUN_CHECKPOINT_FORMAT;
  version: 1;
  state: RunState;
  inFlight?: InFlightAction;
}

/**
 * Receives each checkpoint synchronously, between the run's events: a host that stores a checkpoint with
 * the events emitted before it (one transaction) never loses a step it already told anyone about.
 * A sink may return a promise that settles once the checkpoint is durable: the run then waits for it in
 * front of a `write`, `external` or `stateful` call (write-ahead), so that a process killed during such a
 * call is always recovered as "interrupted", never by running the call again. Read calls never wait.
 */
export type CheckpointSink = (checkpoint: RunCheckpoint) => void | Promise<void>;

/** A checkpoint of `state` as it is now: a deep copy, since the run goes on changing it. */
export function createRunCheckpoint(state: RunState, inFlight?: InFlightAction): RunCheckpoint {
  const checkpoint: RunCheckpoint = {
    format: RUN_CHECKPOINT_FORMAT,
    version: 1,
    state: structuredClone(state),
  };
  if (inFlight !== undefined) checkpoint.inFlight = structuredClone(inFlight);
  return checkpoint;
}

const CheckpointShape = z.looseObject({
  format: z.literal(RUN_CHECKPOINT_FORMAT),
  version: z.literal(1),
  state: RunStateShape,
  inFlight: z
    .looseObject({
      action: PlannerAction,
      source: ActionSource,
      tool: z.string(),
      sideEffects: z.enum(SIDE_EFFECTS),
      approved: z.literal(true).optional(),
    })
    .optional(),
});

/** Reads a stored checkpoint back; throws `invalid_state` when it is not one this planner wrote. */
export function parseRunCheckpoint(value: unknown): RunCheckpoint {
  const parsed = CheckpointShape.safeParse(value);
  if (parsed.success) return parsed.data as unknown as RunCheckpoint;
  const issue = parsed.error.issues[0];
  throw new PlannerError(
    "invalid_state",
    `The checkpoint is not one of a Waddle run (${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}).`,
  );
}
