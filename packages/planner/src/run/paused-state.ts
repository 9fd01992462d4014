import { PauseReason, PlannerAction } from "@waddle/protocol";
import { z } from "zod";
import { PlannerError } from "../errors/planner-error.js";
import type { RunState } from "./run-state.js";
import type { PendingMerge } from "./pending-merge.js";

/** What the run waits for; decides what `approve`, `reject` and `edit` mean on resume. */
export const PAUSE_KINDS = [
  /** A tool call that needs a person's approval before it runs (`requiresApproval`, `approvalSideEffects`). */
  "tool_approval",
  /** A tool that paused itself (`ctx.pause`): it runs again with the person's answer. */
  "tool_pause",
  /** Planning hints that block progress (`constraints_conflict`). */
  "constraints",
  /** A background task waiting for confirmation (`tasks.spawnRequiresConfirmation`). */
  "task_spawn",
  /** HUMAN_GATED task results waiting to be merged or discarded. */
  "task_merge",
  /** A call whose required args the model could not give: a person supplies them (`await_input`). */
  "arg_input",
  /** A run repeating itself (the stuck-run breaker's `pause`): approve lets it go on, reject ends it. */
  "stuck",
  /** A guard that asks a person (`action: "pause"`): approve lets the held query, result or answer go on. */
  "guard",
] as const;
export type PauseKind = (typeof PAUSE_KINDS)[number];

/** Why and where a run paused: saved with its state, read back on resume. Plain JSON. */
export interface PauseRecord {
  reason: PauseReason;
  kind: PauseKind;
  payload: Record<string, unknown>;
  /** The call waiting for the person (tool approval, tool pause, task spawn). */
  action?: PlannerAction;
  /** The results waiting for the person (task merge). */
  merge?: PendingMerge;
}

/** A paused run's state: plain JSON, so that any store can persist it. */
export type SerializedPlannerState = Record<string, unknown>;

/** The document a `StateStore` keeps for a paused run. */
export interface SavedRun {
  format: typeof SAVED_RUN_FORMAT;
  version: 1;
  state: RunState;
  paused: PauseRecord;
}

export const SAVED_RUN_FORMAT = "waddle.paused-run";

const JsonRecord = z.record(z.string(), z.unknown());
const Merge = z.looseObject({
  mergeId: z.string(),
  kind: z.enum(["task", "group"]),
  strategy: z.enum(["HUMAN_GATED", "APPEND", "REPLACE"]),
  requiresApproval: z.boolean(),
  name: z.string(),
  groupId: z.string().optional(),
  tasks: z.array(z.looseObject({ taskId: z.string(), name: z.string(), status: z.string() })),
  createdAt: z.number(),
});

// The state is checked where a wrong shape would break the loop; the rest is the planner's own output.
/** The shape of a saved `RunState` (paused runs, checkpoints). */
export const RunStateShape = z.looseObject({
  version: z.literal(1),
  runId: z.string().min(1),
  query: z.string(),
  steps: z.array(z.looseObject({ next_node: z.string(), args: JsonRecord, source: z.string() })),
  iteration: z.int().nonnegative(),
  hops: z.int().nonnegative(),
  usage: z.looseObject({
    promptTokens: z.number(),
    completionTokens: z.number(),
    reasoningTokens: z.number(),
    costUsd: z.number(),
    llmCalls: z.number(),
  }),
  seq: z.int().nonnegative(),
  actionSeq: z.int().nonnegative(),
  startedAt: z.number(),
  deadlineAt: z.number().optional(),
  consecutiveArgFailures: z.int().nonnegative(),
  corrections: z.array(z.string()),
  pendingActions: z.array(z.looseObject({ action: PlannerAction, source: z.string() })),
  autoSeqSavedCalls: z.int().nonnegative(),
  observationsByTool: JsonRecord,
  heldMerges: z.array(Merge).optional(),
});

const SavedRunShape = z.looseObject({
  format: z.literal(SAVED_RUN_FORMAT),
  version: z.literal(1),
  state: RunStateShape,
  paused: z.looseObject({
    reason: PauseReason,
    kind: z.enum(PAUSE_KINDS),
    payload: JsonRecord,
    action: PlannerAction.optional(),
    merge: Merge.optional(),
  }),
});

/** The saved document for a pause (plain JSON, as a `StateStore` expects). */
export function createSavedRun(state: RunState, paused: PauseRecord): SerializedPlannerState {
  const saved: SavedRun = { format: SAVED_RUN_FORMAT, version: 1, state, paused };
  return saved as unknown as SerializedPlannerState;
}

/** Reads a stored pause back; throws `invalid_state` when the document is not one this planner wrote. */
export function parseSavedRun(value: SerializedPlannerState, token: string): SavedRun {
  const parsed = SavedRunShape.safeParse(value);
  if (parsed.success) return parsed.data as unknown as SavedRun;
  const issue = parsed.error.issues[0];
  throw new PlannerError(
    "invalid_state",
    `The state saved under resume token "${token}" is not a paused Waddle run ` +
      `(${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}); it cannot be resumed.`,
    { details: { token, issues: parsed.error.issues.slice(0, 5).map((item) => item.message) } },
  );
}
