import {
  type ActionSource,
  type FinalPayload,
  type FinishReason,
  type PlannerAction,
  READ_ONLY_SIDE_EFFECTS,
  type RunMetadata,
} from "@waddle/protocol";
import type { CheckContext } from "../actions/action-checker.js";
import { Cancellation } from "../util/cancellation.js";
import { planWithLlm } from "./action-planner.js";
import type { Decision } from "./decision.js";
import { runAutoSeqDetection } from "./steps/auto-seq-runner.js";
import { createToolRuntime } from "./steps/create-tool-runtime.js";
import { createRunMetadata } from "../run/run-metadata.js";
import { createFallbackPayload } from "../run/final-payload.js";
import { checkStepBudgets, getHopsLeft } from "./budgets/budget-checks.js";
import type { LlmCaller } from "../llm/llm-caller.js";
import type { LlmClient } from "../llm/llm-client.js";
import type { RunCalls } from "../run/call-record.js";
import { createCallLayerLlmClient } from "../replay/call-layer-llm-client.js";
import type { PauseRecord } from "../run/paused-state.js";
import type { PlannerConfig } from "./planner-config.js";
import { isPlannerError, PlannerError } from "../errors/planner-error.js";
import type { PlannerView } from "../run/planner-view.js";
import { pauseForConflicts, pauseRun } from "./steps/run-pause.js";
import { RunEventEmitter } from "../run/run-event-emitter.js";
import { routeRun } from "./run-routing.js";
import type { RunState, TrajectoryStep } from "../run/run-state.js";
import {
  createInitialState,
  createRunLlmCaller,
  emitActionEvent,
  getPlannerView,
  getRunStartedData,
} from "./run-setup.js";
import type { RunContext } from "./run-context.js";
import { getForkConfig } from "./steps/fork-config.js";
import { RunTasks } from "./steps/run-tasks.js";
import { HostedTasks } from "./steps/hosted-tasks.js";
import type { BackgroundTasks } from "../tasks/task-types.js";
import type { TaskHost } from "../run/task-host.js";
import type { ForkedRun } from "./steps/task-jobs.js";
import type { PlannerFinish, PlannerOutcome, PlannerPause, RunOptions } from "../run/run-types.js";
import { collectSecretStrings, scrubSecrets } from "../secrets/secret-scrubber.js";
import { dispatchAction, takeQueued } from "./step-runner.js";
import { drainTaskResults } from "./steps/task-results.js";
import type { ToolRuntime } from "../tools/tool-runtime.js";
import { createUserMessage, TrajectoryMessages } from "../trajectory/trajectory-messages.js";
import { TrajectoryRecorder, type StepRecord } from "../trajectory/trajectory-recorder.js";
import { applyNonPlannerIteration } from "../todos/write-todos.js";
import { getInFlightAction } from "./steps/get-in-flight-action.js";
import { getRunSystemPrompt } from "../answer/answer-schema.js";
import { createRunCheckpoint, type CheckpointSink, type InFlightAction } from "../run/run-checkpoint.js";
import type { GuardOutcome } from "../guards/guard-engine.js";
import { applyInputGuards } from "./steps/guard-steps.js";

/** A new run starts from a query; a resumed one from its saved state. */
export type RunStart = { query: string } | { state: RunState };

/**
 * One run of a planner: all per-run state lives here (never on the planner), so that one planner can run
 * many queries at once. The loop: limits, task results, auto-seq detection, next action (queued or from
 * the LLM), dispatch, repeat. See docs/loop-features.md for where each feature hooks in.
 */
export class PlannerRun implements RunContext {
  readonly config: PlannerConfig;
  readonly state: RunState;
  readonly events: RunEventEmitter;
  readonly messages: TrajectoryMessages;
  /** Replaced when the reasoning router picks another model. */
  llmCaller: LlmCaller;
  readonly toolRuntime: ToolRuntime;
  readonly toolContext: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal;
  readonly cancellation: Cancellation;
  readonly secrets: ReadonlySet<string>;
  /** Background tasks, once the run spawned one. */
  tasks: BackgroundTasks | undefined;
  /**
   * A task run (`ReactPlanner.runTask`): why an abort ends it as a failure (`task_timeout`) rather than a
   * cancel, and the payload's `artifacts.task_result` it finishes with. A pause fails it (`subagent_paused`):
   * a background task cannot wait for a person.
   */
  taskMode:
    { stopFailure?: PlannerError<string>; toTaskResult?: (payload: FinalPayload) => unknown } | undefined;
  private readonly taskHost: TaskHost | undefined;
  /** A routed candidate's model name, passed to the main client. */
  routedModel: string | undefined;
  private readonly recorder: TrajectoryRecorder;
  /** Set once the run finished, failed or paused: nothing may add to its usage or events after that. */
  private ended = false;
  private readonly onCheckpoint: CheckpointSink | undefined;
  /** The run's record and replay layer (`RunOptions.calls`). */
  private readonly calls: RunCalls | undefined;

  constructor(config: PlannerConfig, start: RunStart, options: RunOptions = {}) {
    this.config = config;
    this.onCheckpoint = options.onCheckpoint;
    this.taskHost = options.taskHost;
    this.taskMode = undefined;
    this.cancellation = new Cancellation(options.signal);
    this.signal = this.cancellation.signal;
    this.secrets = collectSecretStrings(options.toolContext);
    this.toolContext = Object.freeze({ ...options.toolContext });
    this.state =
      "state" in start
        ? start.state
        : createInitialState({ config, query: start.query, options, secrets: this.secrets });
    this.events = new RunEventEmitter({
      state: this.state,
      sink: options.onEvent,
      clock: config.clock,
      secrets: this.secrets,
      previewChars: config.previewChars,
    });
    const systemPrompt = getRunSystemPrompt(config.systemPrompt, this.state.answerSchema);
    const userMessage = createUserMessage(
      scrubSecrets(this.state.query, this.secrets),
      this.state.contextMeta,
    );
    this.messages =
      "state" in start
        ? TrajectoryMessages.fromState({ systemPrompt, userMessage, state: this.state })
        : new TrajectoryMessages(systemPrompt, userMessage);
    this.calls = options.calls;
    this.recorder = new TrajectoryRecorder(
      this.state,
      this.messages,
      this.secrets,
      config.clock,
      options.calls?.record,
    );
    this.llmCaller = createRunLlmCaller(this, this.withCalls(config.llm));
    this.toolRuntime = createToolRuntime({
      config,
      state: this.state,
      toolContext: this.toolContext,
      cancellation: this.cancellation,
      events: this.events,
      secrets: this.secrets,
      reportUsage: (report, step) => {
        // A tool still running when the run ended (timed out, cancelled) cannot change its totals.
        if (!this.ended) this.llmCaller.recordToolUsage(report, step);
      },
    });
    if (options.calls !== undefined) this.toolRuntime.calls = options.calls;
    this.tasks = undefined;
    this.routedModel = undefined;
    if (this.state.route !== undefined) this.applyRoute();
  }

  /**
   * The loop of a new run. Resolves with a finish or a pause; rejects (after `run_failed`) on bugs.
   * `inputGuards`: what the input guards decided on the query (`ReactPlanner.run`), applied first.
   */
  execute(inputGuards?: GuardOutcome): Promise<PlannerOutcome> {
    this.events.emit("run_started", getRunStartedData(this));
    return this.loop(
      () =>
        (inputGuards === undefined ? undefined : applyInputGuards(this, inputGuards)) ??
        (this.config.hintConflicts.length > 0 && this.state.conflictsAcknowledged !== true
          ? pauseForConflicts(this)
          : undefined),
    );
  }

  /** The loop of a resumed run: `prelude` emits `resumed` and applies the person's decision. */
  continue(prelude: () => Promise<PlannerOutcome> | PlannerOutcome | undefined): Promise<PlannerOutcome> {
    return this.loop(prelude);
  }

  private async loop(
    prelude: () => Promise<PlannerOutcome> | PlannerOutcome | undefined,
  ): Promise<PlannerOutcome> {
    try {
      const early = await prelude();
      if (early !== undefined) return early;
      if (this.config.reasoningEffort === "auto" && this.state.route === undefined) await routeRun(this);
      for (;;) {
        this.saveCheckpoint();
        const stop = this.checkLimits();
        if (stop !== undefined) return await stop;
        if (this.tasks !== undefined || this.state.heldMerges !== undefined) {
          const held = await drainTaskResults(this);
          if (held !== undefined) return held;
        }
        if (this.config.autoSeq !== undefined) runAutoSeqDetection(this);
        const decision = takeQueued(this) ?? (await planWithLlm(this));
        if (decision.kind === "action" && decision.checked.kind !== "final") {
          const inFlight = getInFlightAction(decision);
          const stored = this.saveCheckpoint(inFlight);
          // Write-ahead: a call that changes the world starts once the host holds its checkpoint.
          if (stored !== undefined && !READ_ONLY_SIDE_EFFECTS.has(inFlight.sideEffects)) await stored;
        }
        const handled = this.handle(decision);
        // Answers and refusals settle at once: no await (a microtask and some garbage per step).
        const outcome = handled instanceof Promise ? await handled : handled;
        if (decision.kind === "action") this.afterAction(decision.action);
        if (outcome !== undefined) return outcome;
      }
    } catch (error) {
      return this.endAfterError(error);
    } finally {
      this.tasks?.close({ keepResults: false });
      this.cancellation.dispose();
    }
  }

  /**
   * A cancelled run finishes as cancelled (a task past its limit fails instead); any other error fails it.
   * Also for the tool job (`runToolJob`).
   */
  endAfterError(error: unknown): PlannerFinish {
    if (!this.signal.aborted) throw this.fail(error);
    const stop = this.taskMode?.stopFailure;
    if (stop === undefined) return this.finishCancelled();
    throw this.fail(stop);
  }

  /** Hands the host a copy of the state between steps, or in front of a call (`inFlight`). */
  private saveCheckpoint(inFlight?: InFlightAction): Promise<void> | undefined {
    if (this.onCheckpoint === undefined || this.ended) return undefined;
    try {
      const stored = this.onCheckpoint(createRunCheckpoint(this.state, inFlight));
      // As for events: a failing host must not break the run.
      return stored instanceof Promise ? stored.catch(() => undefined) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Runs a decision; not `async`, so that the loop awaits only what really waits (see `loop`). */
  private handle(decision: Decision): PlannerOutcome | undefined | Promise<PlannerOutcome | undefined> {
    if (decision.kind === "outcome") return decision.outcome;
    if (decision.kind === "pause") {
      const { reason, payload, action } = decision;
      const kind =
        decision.pauseKind ?? (reason === "constraints_conflict" ? "constraints" : "tool_approval");
      return this.pause(action === undefined ? { reason, kind, payload } : { reason, kind, payload, action });
    }
    this.state.iteration += 1;
    if (decision.kind === "refused") {
      this.recordStep({
        action: decision.action,
        source: decision.source,
        failure: decision.failure,
        refused: true,
      });
      return undefined;
    }
    return dispatchAction(this, decision);
  }

  /** After an action ran: an iteration that did not update the todos counts against them. */
  private afterAction(action: PlannerAction): void {
    const { todos } = this.state;
    if (todos !== undefined && action.next_node !== this.config.writeTodosTool?.name) {
      this.state.todos = applyNonPlannerIteration(todos);
    }
  }

  /** Cancellation, then the budgets (docs/budgets.md), checked before every step. */
  private checkLimits(): PlannerOutcome | Promise<PlannerOutcome> | undefined {
    if (this.signal.aborted) {
      // A task run past its time limit fails (the loop's catch writes run_failed once).
      if (this.taskMode?.stopFailure !== undefined) throw this.taskMode.stopFailure;
      return this.finishCancelled();
    }
    return checkStepBudgets(this);
  }

  checkContext(skipSoftHints = false): CheckContext {
    return {
      catalog: this.config.catalog,
      hints: this.config.hints,
      options: this.config.options,
      visited: this.visited,
      corrections: this.state.corrections,
      hopsLeft: getHopsLeft(this),
      skipSoftHints,
    };
  }

  /** The structured view for in-process models; shares the trajectory array instead of copying it. */
  plannerView(lastError?: { code: string; message: string }): PlannerView {
    return getPlannerView(this, lastError);
  }

  emitAction(action: PlannerAction, source: ActionSource, actionSeq: number): void {
    emitActionEvent(this, { action, source, actionSeq });
  }

  /** Appends a step to the trajectory and the messages (see `TrajectoryRecorder`). */
  recordStep(input: StepRecord): TrajectoryStep {
    return this.recorder.record(input);
  }

  /** Tools called so far (any outcome), for ordering hints. */
  get visited(): ReadonlySet<string> {
    return this.recorder.visited;
  }

  /** The run's background tasks, created on the first spawn: the host's when one was given. */
  getTasks(): BackgroundTasks {
    return (this.tasks ??=
      this.taskHost === undefined
        ? new RunTasks(this, (query, options) => this.fork(query, options))
        : new HostedTasks(this, this.taskHost));
  }

  /** A `task.subagent` job: a forked run of the same planner (see `getForkConfig`). */
  private async fork(query: string, options: RunOptions): Promise<ForkedRun> {
    const child = new PlannerRun(getForkConfig(this.config), { query }, options);
    return { outcome: await child.execute(), state: child.state };
  }

  /** The client as this run calls it: through its record and replay layer, when it has one. */
  private withCalls(llm: LlmClient): LlmClient {
    const { calls } = this;
    if (calls === undefined) return llm;
    return createCallLayerLlmClient({
      inner: llm,
      calls,
      getStep: () => this.state.steps.length,
      secrets: this.secrets,
    });
  }

  /** Uses the routed candidate model for the planning calls that follow. */
  applyRoute(): void {
    const modelId = this.state.route?.modelId;
    const candidate =
      modelId === undefined ? undefined : this.config.candidates.find((item) => item.id === modelId);
    if (candidate?.llm !== undefined)
      this.llmCaller = createRunLlmCaller(this, this.withCalls(candidate.llm));
    else if (candidate?.model !== undefined) this.routedModel = candidate.model;
  }

  finish(reason: FinishReason, payload: FinalPayload): PlannerFinish {
    this.ended = true;
    this.tasks?.close({ keepResults: false, reason: "finished" });
    const toTaskResult = this.taskMode?.toTaskResult;
    if (toTaskResult !== undefined && reason !== "cancelled") {
      payload = { ...payload, artifacts: { ...payload.artifacts, task_result: toTaskResult(payload) } };
    }
    const metadata = this.metadata();
    // An answer over a join that failed and was never redone is not the whole story: ask for a follow-up.
    const joinFailed = metadata.failedJoins?.some((join) => !join.recovered) === true;
    const safePayload = scrubSecrets(
      joinFailed && !payload.requires_followup ? { ...payload, requires_followup: true } : payload,
      this.secrets,
    );
    this.events.emit("run_finished", { reason, payload: safePayload, metadata });
    return { kind: "finish", reason, payload: safePayload, metadata };
  }

  finishCancelled(): PlannerFinish {
    const message = "The run was cancelled before an answer was ready.";
    return this.finish(
      "cancelled",
      createFallbackPayload({ message, steps: this.state.steps, requiresFollowup: false }),
    );
  }

  /** Pauses the run and saves its state (see `pauseRun`). */
  pause(record: PauseRecord): Promise<PlannerPause> {
    if (this.taskMode !== undefined) {
      const message =
        `The task paused (${record.reason}): a background task cannot wait for a person. ` +
        "Do this step in the foreground instead.";
      return Promise.reject(new PlannerError("subagent_paused", message));
    }
    this.ended = true;
    return pauseRun(this, record);
  }

  metadata(): RunMetadata {
    return createRunMetadata(this.state, this.config.clock());
  }

  /** Emits `run_failed` and returns the error to throw, as a `PlannerError`. */
  fail(error: unknown): PlannerError<string> {
    this.ended = true;
    this.tasks?.close({ keepResults: false, reason: "failed" });
    const text = error instanceof Error ? error.message : String(error);
    const failure = isPlannerError(error)
      ? error
      : new PlannerError("internal_error", `The run failed: ${text}`, { cause: error });
    const { code, message, details } = scrubSecrets(failure.toJSON(), this.secrets);
    this.events.emit("run_failed", {
      error: { code, message, ...(details === undefined ? {} : { details }) },
    });
    return failure;
  }
}
