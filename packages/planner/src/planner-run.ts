import type {
  ActionSource,
  FinalPayload,
  FinishReason,
  PauseReason,
  PlannerAction,
  RunEventData,
  RunMetadata,
} from "@waddle/protocol";
import type { CheckContext } from "./action-checker.js";
import { Cancellation } from "./cancellation.js";
import { planWithLlm, type Decision } from "./action-planner.js";
import { createToolRuntime } from "./create-tool-runtime.js";
import { createFallbackPayload } from "./final-payload.js";
import { LlmCaller } from "./llm-caller.js";
import type { PlannerConfig } from "./planner-config.js";
import { isPlannerError, PlannerError } from "./planner-error.js";
import type { PlannerView } from "./planner-view.js";
import { RunEventEmitter } from "./run-event-emitter.js";
import { createRunState, type RunState, type TrajectoryStep } from "./run-state.js";
import type { PlannerFinish, PlannerOutcome, PlannerPause, RunOptions } from "./run-types.js";
import { collectSecretStrings, scrubSecrets } from "./secret-scrubber.js";
import { decideQueued, dispatchAction } from "./step-runner.js";
import type { ToolRuntime } from "./tool-executor.js";
import { createUserMessage, TrajectoryMessages } from "./trajectory-messages.js";
import { TrajectoryRecorder, type StepRecord } from "./trajectory-recorder.js";

type Constraint = RunEventData<"constraint_violation">["constraint"];

/**
 * One run of a planner: all per-run state lives here (never on the planner), so that one planner can run
 * many queries at once. `execute()` is the ReAct loop: limits, next action (queued or from the LLM),
 * dispatch, repeat. See docs/loop-seams.md for where issue-4 features plug in.
 */
export class PlannerRun {
  readonly config: PlannerConfig;
  readonly state: RunState;
  readonly events: RunEventEmitter;
  readonly messages: TrajectoryMessages;
  readonly llmCaller: LlmCaller;
  readonly toolRuntime: ToolRuntime;
  readonly signal: AbortSignal;
  readonly cancellation: Cancellation;
  readonly secrets: ReadonlySet<string>;
  private readonly recorder: TrajectoryRecorder;

  constructor(config: PlannerConfig, query: string, options: RunOptions = {}) {
    this.config = config;
    this.cancellation = new Cancellation(options.signal);
    this.signal = this.cancellation.signal;
    this.secrets = collectSecretStrings(options.toolContext);
    const contextMeta =
      options.contextMeta === undefined ? undefined : scrubSecrets(options.contextMeta, this.secrets);
    this.state = createRunState({
      runId: options.runId ?? config.createId(),
      query,
      startedAt: config.clock(),
      ...(contextMeta === undefined ? {} : { contextMeta }),
      ...(config.options.deadlineS === undefined ? {} : { deadlineS: config.options.deadlineS }),
    });
    this.events = new RunEventEmitter({
      state: this.state,
      sink: options.onEvent,
      clock: config.clock,
      secrets: this.secrets,
      previewChars: config.previewChars,
    });
    this.messages = new TrajectoryMessages(
      config.systemPrompt,
      createUserMessage(scrubSecrets(query, this.secrets), contextMeta),
    );
    this.recorder = new TrajectoryRecorder(this.state, this.messages, this.secrets, config.clock);
    this.llmCaller = new LlmCaller({
      llm: config.llm,
      cancellation: this.cancellation,
      events: this.events,
      usage: this.state.usage,
      clock: config.clock,
      responseFormat: config.responseFormat,
      ...(config.priceTable === undefined ? {} : { priceTable: config.priceTable }),
      nextActionSeq: () => this.state.actionSeq++,
      secrets: this.secrets,
    });
    this.toolRuntime = createToolRuntime({
      config,
      state: this.state,
      toolContext: Object.freeze({ ...options.toolContext }),
      cancellation: this.cancellation,
      events: this.events,
      secrets: this.secrets,
    });
  }

  /** The loop. Resolves with a finish or a pause; rejects (after `run_failed`) only on unexpected errors. */
  async execute(): Promise<PlannerOutcome> {
    this.emitRunStarted();
    try {
      if (this.config.hintConflicts.length > 0) return await this.pauseForConflicts();
      for (;;) {
        const stop = this.checkLimits();
        if (stop !== undefined) return stop;
        const decision = this.takeQueued() ?? (await planWithLlm(this));
        const outcome = await this.handle(decision);
        if (outcome !== undefined) return outcome;
      }
    } catch (error) {
      if (this.signal.aborted) return this.finishCancelled();
      throw this.fail(error);
    } finally {
      this.cancellation.dispose();
    }
  }

  private takeQueued(): Decision | undefined {
    while (this.state.pendingActions.length > 0) {
      const queued = this.state.pendingActions.shift();
      const decision = queued === undefined ? undefined : decideQueued(this, queued);
      if (decision !== undefined) return decision;
    }
    return undefined;
  }

  private async handle(decision: Decision): Promise<PlannerOutcome | undefined> {
    if (decision.kind === "outcome") return decision.outcome;
    if (decision.kind === "pause") return this.pause(decision.reason, decision.payload, decision.action);
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

  /** Cancellation, deadline, cost ceiling and max_iters, checked before every step. */
  checkLimits(): PlannerOutcome | undefined {
    if (this.signal.aborted) return this.finishCancelled();
    if (this.isPastDeadline()) {
      return this.finishByConstraint(
        "deadline",
        `The deadline of ${this.config.options.deadlineS ?? 0} s has passed.`,
      );
    }
    const maxCost = this.config.hints.maxCostUsd;
    if (maxCost !== undefined && this.state.usage.costUsd >= maxCost) {
      return this.finishByConstraint("cost_budget", `The cost ceiling of $${maxCost} has been reached.`);
    }
    if (this.state.iteration >= this.config.options.maxIters) {
      const message = `The run used all ${this.config.options.maxIters} steps (maxIters) without an answer.`;
      this.events.emit("constraint_violation", { constraint: "max_iters", message, enforced: "finished" });
      return this.finish("max_iters", createFallbackPayload({ message, steps: this.state.steps }));
    }
    return undefined;
  }

  isPastDeadline(): boolean {
    return this.state.deadlineAt !== undefined && this.config.clock() >= this.state.deadlineAt;
  }

  /** Milliseconds left before the deadline (undefined without one). */
  remainingMs(): number | undefined {
    return this.state.deadlineAt === undefined
      ? undefined
      : Math.max(0, this.state.deadlineAt - this.config.clock());
  }

  checkContext(skipSoftHints = false): CheckContext {
    const hopBudget = this.config.options.hopBudget;
    return {
      catalog: this.config.catalog,
      hints: this.config.hints,
      options: this.config.options,
      visited: this.visited,
      corrections: this.state.corrections,
      hopsLeft: hopBudget === undefined ? Infinity : Math.max(0, hopBudget - this.state.hops),
      skipSoftHints,
    };
  }

  /** The structured view for in-process models; shares the trajectory array instead of copying it. */
  plannerView(lastError?: { code: string; message: string }): PlannerView {
    const { config, state } = this;
    const view: PlannerView = {
      query: state.query,
      tools: config.viewTools,
      hints: config.hints.hints,
      edges: config.edges,
      groups: config.groups,
      steps: state.steps,
      todos: { enabled: config.options.todos.enabled, items: [] },
      tasksEnabled: config.options.tasks.enabled,
      iteration: state.iteration,
      maxIters: config.options.maxIters,
    };
    if (lastError !== undefined) view.lastError = lastError;
    return view;
  }

  emitAction(action: PlannerAction, source: ActionSource, actionSeq: number): void {
    if (!this.events.enabled) return this.events.skip();
    this.events.emit("action", {
      next_node: action.next_node,
      args: this.events.preview(action.args),
      source,
      action_seq: actionSeq,
    });
  }

  /** Appends a step to the trajectory and the messages (see `TrajectoryRecorder`). */
  recordStep(input: StepRecord): TrajectoryStep {
    return this.recorder.record(input);
  }

  /** Tools called so far (any outcome), for ordering hints. */
  get visited(): ReadonlySet<string> {
    return this.recorder.visited;
  }

  finish(reason: FinishReason, payload: FinalPayload): PlannerFinish {
    const safePayload = scrubSecrets(payload, this.secrets);
    const metadata = this.metadata();
    this.events.emit("run_finished", { reason, payload: safePayload, metadata });
    return { kind: "finish", reason, payload: safePayload, metadata };
  }

  finishByConstraint(constraint: Constraint, message: string): PlannerFinish {
    this.events.emit("constraint_violation", { constraint, message, enforced: "finished" });
    return this.finish("budget_exhausted", createFallbackPayload({ message, steps: this.state.steps }));
  }

  finishCancelled(): PlannerFinish {
    const message = "The run was cancelled before an answer was ready.";
    return this.finish(
      "cancelled",
      createFallbackPayload({ message, steps: this.state.steps, requiresFollowup: false }),
    );
  }

  /**
   * Pauses the run: emits `pause`, saves the state under a new resume token when a state store is given,
   * and returns the `PlannerPause`. `action` is the call waiting for the person (approval, tool pause).
   */
  async pause(
    reason: PauseReason,
    payload: Record<string, unknown>,
    action?: PlannerAction,
  ): Promise<PlannerPause> {
    const resumeToken = this.config.createId();
    const safePayload = scrubSecrets(payload, this.secrets);
    const shown = this.events.enabled ? (this.events.preview(safePayload) as Record<string, unknown>) : {};
    this.events.emit("pause", { reason, payload: shown, resumeToken });
    const metadata = this.metadata();
    if (this.config.stateStore !== undefined) {
      const paused =
        action === undefined ? { reason, payload: safePayload } : { reason, payload: safePayload, action };
      await this.config.stateStore.save(resumeToken, { state: this.state, paused } as unknown as Record<
        string,
        unknown
      >);
    }
    return { kind: "pause", reason, payload: safePayload, resumeToken, metadata };
  }

  private async pauseForConflicts(): Promise<PlannerPause> {
    const conflicts = this.config.hintConflicts;
    for (const conflict of conflicts) {
      const constraint: Constraint =
        conflict.kind === "sequential_in_group" ? "sequential_only" : "disallow_nodes";
      this.events.emit("constraint_violation", { constraint, message: conflict.message, enforced: "paused" });
    }
    return this.pause("constraints_conflict", {
      conflicts: conflicts.map((conflict) => ({ ...conflict })),
      message: "The planning hints make progress impossible: relax them and resume, or change the agent.",
    });
  }

  metadata(): RunMetadata {
    const { usage } = this.state;
    return {
      steps: this.state.steps.length,
      llmCalls: usage.llmCalls,
      autoSeqSavedCalls: this.state.autoSeqSavedCalls,
      usage: { ...usage },
      durationMs: Math.max(0, this.config.clock() - this.state.startedAt),
    };
  }

  private emitRunStarted(): void {
    const { llm } = this.config;
    const data: RunEventData<"run_started"> = {
      query: scrubSecrets(this.state.query, this.secrets),
      llm: { provider: llm.provider, model: llm.model, offline: llm.offline === true },
      tools: [...this.config.catalog.names],
    };
    if (this.config.agentId !== undefined) data.agentId = this.config.agentId;
    if (this.config.agentVersion !== undefined) data.agentVersion = this.config.agentVersion;
    this.events.emit("run_started", data);
  }

  /** Emits `run_failed` and returns the error to throw, as a `PlannerError`. */
  private fail(error: unknown): PlannerError<string> {
    const failure = isPlannerError(error)
      ? error
      : new PlannerError(
          "internal_error",
          `The run failed: ${error instanceof Error ? error.message : String(error)}`,
          {
            cause: error,
          },
        );
    const message = scrubSecrets(failure.message, this.secrets);
    this.events.emit("run_failed", { error: { code: failure.code, message } });
    return failure;
  }
}
