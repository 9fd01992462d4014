import type {
  ActionSource,
  FinalPayload,
  FinishReason,
  PlannerAction,
  RunEventData,
  RunMetadata,
} from "@waddle/protocol";
import type { CheckContext } from "../actions/action-check-types.js";
import type { LlmCaller } from "../llm/llm-caller.js";
import type { PauseRecord } from "../run/paused-state.js";
import type { BackgroundTasks } from "../tasks/task-types.js";
import type { ToolRuntime } from "../tools/tool-runtime.js";
import type { StepRecord } from "../trajectory/trajectory-recorder.js";
import type { TrajectoryMessages } from "../trajectory/trajectory-messages.js";
import type { Cancellation } from "../util/cancellation.js";
import type { PlannerConfig } from "./planner-config.js";
import type { PlannerView } from "../run/planner-view.js";
import type { RunEventEmitter } from "../run/run-event-emitter.js";
import type { RunState, TrajectoryStep } from "../run/run-state.js";
import type { PlannerFinish, PlannerPause } from "../run/run-types.js";

/** A limit that ends a run (`constraint_violation`'s `constraint`). */
export type ConstraintName = RunEventData<"constraint_violation">["constraint"];

/**
 * What a step of the loop sees of its run: the planner's configuration, the run's state, events and
 * messages, and the few things only the run may do (record a step, finish, pause). `PlannerRun` is the one
 * implementation; steps import this interface, never the class, as the tool executor takes `ToolRuntime`.
 */
export interface RunContext {
  readonly config: PlannerConfig;
  readonly state: RunState;
  readonly events: RunEventEmitter;
  readonly messages: TrajectoryMessages;
  /** The caller of planning calls; replaced when the reasoning router picks another model. */
  readonly llmCaller: LlmCaller;
  readonly toolRuntime: ToolRuntime;
  readonly toolContext: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal;
  readonly cancellation: Cancellation;
  /** toolContext strings: never in events, messages, saved state or the outcome. */
  readonly secrets: ReadonlySet<string>;
  /** Background tasks, once the run spawned one. */
  readonly tasks: BackgroundTasks | undefined;
  /** A routed candidate's model name, passed to the main client. */
  readonly routedModel: string | undefined;
  /** The run's background tasks, created on the first spawn. */
  getTasks(): BackgroundTasks;
  /** Appends a step to the trajectory and the messages (see `TrajectoryRecorder`). */
  recordStep(input: StepRecord): TrajectoryStep;
  emitAction(action: PlannerAction, source: ActionSource, actionSeq: number): void;
  /** What the action checker needs; `skipSoftHints` for actions that did not come from the LLM. */
  checkContext(skipSoftHints?: boolean): CheckContext;
  /** The structured view for in-process models. */
  plannerView(lastError?: { code: string; message: string }): PlannerView;
  /** Uses the routed candidate model for the planning calls that follow. */
  applyRoute(): void;
  finish(reason: FinishReason, payload: FinalPayload): PlannerFinish;
  finishCancelled(): PlannerFinish;
  /** Pauses the run and saves its state. */
  pause(record: PauseRecord): Promise<PlannerPause>;
  metadata(): RunMetadata;
}
