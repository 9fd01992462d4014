import type { ActionSource, PlannerAction, ToolFailure } from "@waddle/protocol";
import { redactText } from "../secrets/redact-text.js";
import type { PlannerViewBranch, PlannerViewStep } from "../run/planner-view.js";
import type { RunState, StepRemarks, TrajectoryStep } from "../run/run-state.js";
import { scrubSecrets } from "../secrets/secret-scrubber.js";
import type { TrajectoryMessages } from "./trajectory-messages.js";
import type { CallRecordSink } from "../run/call-record.js";

export interface StepRecord {
  action: PlannerAction;
  source: ActionSource;
  observation?: unknown;
  failure?: ToolFailure;
  branches?: PlannerViewBranch[];
  join?: PlannerViewStep["join"];
  refused?: boolean;
  /** A planner note (task results, a person's input): one user message, no action. */
  note?: boolean;
  startedAt?: number;
  /** A clock reading the caller took at the step's end (one clock read less). */
  endedAt?: number;
  /** The LLM's verbatim reply for this action, echoed in the history (see `Decision.reply`). */
  reply?: string | undefined;
  /** Shown to the model beside the observation (see `StepRemarks`). */
  remarks?: StepRemarks | undefined;
}

/**
 * Appends steps to the trajectory and the messages, with secrets scrubbed before either sees them (and
 * before a paused state is saved), and keeps the indexes the loop reads: tools called so far, the latest
 * observation, the latest observation per tool.
 */
export class TrajectoryRecorder {
  /** Tools called so far (any outcome), for ordering hints. */
  readonly visited = new Set<string>();

  constructor(
    private readonly state: RunState,
    private readonly messages: TrajectoryMessages,
    private readonly secrets: ReadonlySet<string>,
    private readonly clock: () => number,
    /** Told each step as it is recorded, with the reply the history echoes (`RunCalls.record`). */
    private readonly sink?: CallRecordSink,
  ) {
    // A restored run (resume) already has steps: rebuild what was visited from them.
    for (const step of state.steps) if (step.refused === undefined && step.note !== true) this.visit(step);
  }

  record(input: StepRecord): TrajectoryStep {
    const now = input.endedAt ?? this.clock();
    const startedAt = input.startedAt ?? now;
    const step: TrajectoryStep = {
      index: this.state.steps.length,
      next_node: input.action.next_node,
      args: scrubSecrets(input.action.args, this.secrets),
      source: input.source,
      startedAt,
      durationMs: Math.max(0, now - startedAt),
    };
    if (input.failure !== undefined) step.failure = scrubSecrets(input.failure, this.secrets);
    else step.observation = scrubSecrets(input.observation, this.secrets);
    if (input.branches !== undefined) step.branches = scrubSecrets(input.branches, this.secrets);
    if (input.join !== undefined) step.join = scrubSecrets(input.join, this.secrets);
    if (input.note === true) step.note = true;
    if (input.remarks !== undefined) step.remarks = scrubSecrets(input.remarks, this.secrets);
    if (input.refused === true && input.failure !== undefined) {
      step.refused = {
        code: input.failure.error_code,
        message: step.failure?.message ?? input.failure.message,
      };
    }
    this.state.steps.push(step);
    const reply =
      input.reply === undefined || this.secrets.size === 0
        ? input.reply
        : redactText(input.reply, this.secrets);
    this.messages.appendStep(step, reply);
    this.remember(step);
    if (this.sink !== undefined) {
      try {
        this.sink(reply === undefined ? { kind: "step", step } : { kind: "step", step, reply });
      } catch {
        // A failing record sink must not break the run.
      }
    }
    return step;
  }

  private remember(step: TrajectoryStep): void {
    if (step.refused !== undefined || step.note === true) return;
    this.visit(step);
    if (step.branches !== undefined || step.next_node.startsWith("task.")) return;
    if (step.failure === undefined) {
      this.state.lastObservation = step.observation;
      this.state.observationsByTool[step.next_node] = step.observation;
    }
  }

  private visit(step: TrajectoryStep): void {
    // No `step.branches ?? []`: a plain tool step (every step of most runs) allocates nothing here.
    if (step.branches !== undefined) {
      for (const branch of step.branches) {
        this.visited.add(branch.node);
        if (branch.failure === undefined) this.state.observationsByTool[branch.node] = branch.observation;
      }
    }
    if (step.join !== undefined && step.join.skipped === undefined) this.visited.add(step.join.node);
    if (step.branches !== undefined || step.next_node.startsWith("task.")) return;
    this.visited.add(step.next_node);
  }
}
