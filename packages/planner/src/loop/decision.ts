import type { ActionSource, PauseReason, PlannerAction, ToolFailure } from "@waddle/protocol";
import type { CheckedAction } from "../actions/action-check-types.js";
import type { ToolResumeInput } from "../catalog/tool.js";
import type { PauseKind } from "../run/paused-state.js";
import type { StepRemarks } from "../run/run-state.js";
import type { PlannerOutcome } from "../run/run-types.js";

/** What the loop does next. */
export type Decision =
  | {
      kind: "action";
      action: PlannerAction;
      checked: CheckedAction;
      source: ActionSource;
      actionSeq: number;
      /** A resumed call that a person already approved. */
      approved?: boolean;
      /** A tool that paused itself runs again with this answer. */
      resumeInput?: ToolResumeInput;
      /** A person's note on their approval of this call (the tool's `approvalNote`). */
      approvalNote?: string;
      /** The LLM's reply when it was exactly this action: the history echoes it instead of re-serializing. */
      reply?: string;
      /** Shown beside the step's observation (alternates not run, dropped steps, an approval's note). */
      remarks?: StepRemarks;
    }
  /** Repairs ran out: the refused action is recorded as a failed step so that the LLM sees why. */
  | { kind: "refused"; action: PlannerAction; source: ActionSource; failure: ToolFailure }
  | { kind: "outcome"; outcome: PlannerOutcome | Promise<PlannerOutcome> }
  /** The run must wait for a person (hints conflict, approval): the loop saves state and pauses. */
  | {
      kind: "pause";
      reason: PauseReason;
      payload: Record<string, unknown>;
      action?: PlannerAction;
      /** What a resume decides on; by default `constraints` for a hints conflict, else `tool_approval`. */
      pauseKind?: PauseKind;
    };

/** An action that passed its checks, on its way to the step that runs it. */
export type ActionDecision = Extract<Decision, { kind: "action" }>;
