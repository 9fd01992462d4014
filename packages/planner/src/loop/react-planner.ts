import { AgentSpec, type AgentSpecInput, type LlmConfig, type LlmPrice } from "@waddle/protocol";
import { buildCatalog } from "../catalog/catalog.js";
import type { LlmClient } from "../llm/llm-client.js";
import type { CandidateLlm, PlannerConfig, ReactPlannerInit } from "./planner-config.js";
import { createPlannerConfig } from "./create-planner-config.js";
import { PlannerRun } from "./planner-run.js";
import type { PriceTable } from "../llm/price-table.js";
import { resumeRun } from "./steps/resume-run.js";
import { recoverRun } from "./steps/recover-run.js";
import {
  recoverTaskJob,
  runTaskJob,
  type BackgroundJob,
  type TaskRecoverOptions,
  type TaskRunOptions,
} from "./task-run.js";
import type {
  PlannerFinish,
  PlannerOutcome,
  PlannerPause,
  RecoverOptions,
  ResumeOptions,
  RunOptions,
} from "../run/run-types.js";
import type { StateStore } from "../pause/state-store.js";
import type { ForkEdit } from "@waddle/protocol";
import { checkForkEdit, type ForkEditCheck } from "../replay/check-fork-edit.js";
import { getRecordedSteps } from "../replay/rebuild-run-state.js";
import type { CallRecord } from "../run/call-record.js";
import { forkRun, type ForkInput } from "./steps/fork-run.js";
import type { ImplResolver, ToolDefinition } from "../catalog/tool.js";
import type { GuardEngine, GuardOutcome } from "../guards/guard-engine.js";
import { Cancellation } from "../util/cancellation.js";

/** Makes the client of an `LlmConfig` (e.g. `(config) => createLlmClient(config, {env})`). */
export type LlmClientFactory = (config: LlmConfig) => LlmClient;

/** What `ReactPlanner.fromSpec` needs besides the spec: the model, tool code, and the same injectables. */
export interface FromSpecOptions extends Omit<
  ReactPlannerInit,
  "catalog" | "options" | "hints" | "edges" | "groups" | "llm" | "candidateLlms"
> {
  llm: LlmClient;
  moduleTools?: ReadonlyMap<string, ToolDefinition> | readonly ToolDefinition[];
  resolveImpl?: ImplResolver;
  summarizerLlm?: LlmClient;
  routerLlm?: LlmClient;
  stateStore?: StateStore;
  /**
   * Builds the clients the spec names besides `llm`: `summarizerLlm` and `routerLlm` when not given
   * above, and each of `candidateLlms` (so that the router's choice of model takes effect).
   */
  createLlmClient?: LlmClientFactory;
  /** Clients of the spec's `candidateLlms` by id (they win over `createLlmClient`). */
  candidateLlms?: ReadonlyMap<string, LlmClient> | Readonly<Record<string, LlmClient>>;
}

/**
 * The ReAct planner (PenguiFlow ReactPlanner contract): a JSON-only loop over a typed tool catalog with
 * repair, retries, constraints, hints enforced in code and parallel fan-out. Holds configuration only:
 * every `run` gets its own state, so one planner may run many queries at once.
 */
export class ReactPlanner {
  private readonly config: PlannerConfig;

  constructor(init: ReactPlannerInit) {
    this.config = createPlannerConfig(init);
  }

  /** A planner for an AgentSpec: its tools (mock tools run here), options, hints, edges and groups. */
  static fromSpec(spec: AgentSpec | AgentSpecInput, options: FromSpecOptions): ReactPlanner {
    const parsed = AgentSpec.parse(spec);
    const { moduleTools, resolveImpl, createLlmClient, candidateLlms, ...rest } = options;
    const catalog = buildCatalog({
      specTools: parsed.tools,
      ...(moduleTools === undefined ? {} : { moduleTools }),
      ...(resolveImpl === undefined ? {} : { resolveImpl }),
      ...(rest.random === undefined ? {} : { random: rest.random }),
      ...(rest.sleep === undefined ? {} : { sleep: rest.sleep }),
    });
    const init: ReactPlannerInit = {
      ...rest,
      catalog,
      options: parsed.planner,
      hints: parsed.hints,
      edges: parsed.edges,
      groups: parsed.groups,
      agentId: rest.agentId ?? parsed.id,
    };
    if (init.summarizerLlm === undefined && parsed.summarizerLlm !== undefined && createLlmClient) {
      init.summarizerLlm = createLlmClient(parsed.summarizerLlm);
    }
    if (init.routerLlm === undefined && parsed.routerLlm !== undefined && createLlmClient) {
      init.routerLlm = createLlmClient(parsed.routerLlm);
    }
    const candidates = getCandidates(parsed, { createLlmClient, candidateLlms });
    if (candidates.length > 0) init.candidateLlms = candidates;
    const priceTable = withSpecPrice(rest.priceTable, parsed.llm.model, parsed.llm.price);
    if (priceTable !== undefined) init.priceTable = priceTable;
    if (rest.reasoningEffort === undefined && parsed.llm.reasoningEffort !== undefined) {
      init.reasoningEffort = parsed.llm.reasoningEffort;
    }
    if (rest.guards === undefined && parsed.guards.length > 0) init.guards = parsed.guards;
    if (rest.createGuardJudge === undefined && createLlmClient !== undefined) {
      init.createGuardJudge = (check) => (check.llm === undefined ? undefined : createLlmClient(check.llm));
    }
    if (rest.answerSchema === undefined && parsed.answerSchema !== undefined) {
      init.answerSchema = parsed.answerSchema;
    }
    if (rest.responseFormat === undefined && parsed.llm.responseFormat !== undefined) {
      init.responseFormat = parsed.llm.responseFormat;
    }
    return new ReactPlanner(init);
  }

  /** The catalog's tool names (built-ins included), in prompt order. */
  get toolNames(): readonly string[] {
    return this.config.catalog.names;
  }

  /** The system prompt every run of this planner starts with. */
  get systemPrompt(): string {
    return this.config.systemPrompt;
  }

  /** Runs `query` to a finish or a pause. Events go to `onEvent`; `signal` cancels. */
  run(query: string, options: RunOptions = {}): Promise<PlannerFinish | PlannerPause> {
    const guards = this.config.guards;
    if (guards === undefined || !guards.has("input")) {
      return new PlannerRun(this.config, { query }, options).execute();
    }
    return this.runGuarded(guards, query, options);
  }

  /**
   * Input guards check the query before the run exists (docs/guides/guardrails.md), so that a masked query
   * is the only one its events, messages and saved state ever hold; the run then applies their decision.
   */
  private async runGuarded(guards: GuardEngine, query: string, options: RunOptions): Promise<PlannerOutcome> {
    let outcome: GuardOutcome;
    const cancellation = new Cancellation(options.signal);
    try {
      outcome = await guards.apply("input", query, { cancellation });
    } catch (error) {
      // Cancelled while checking: the run starts and ends as cancelled, like any cancelled run.
      if (cancellation.aborted) return new PlannerRun(this.config, { query }, options).execute();
      throw error;
    } finally {
      cancellation.dispose();
    }
    const checked = typeof outcome.value === "string" ? outcome.value : JSON.stringify(outcome.value);
    return new PlannerRun(this.config, { query: checked }, options).execute(outcome);
  }

  /**
   * Continues a paused run with a person's decision: `approve` runs the paused call, `edit` runs it with
   * `args` (validated), `reject` tells the model it was refused. The run keeps its id, trajectory,
   * budgets, deadline and event `seq`. Tokens are single-use; an unknown or used one throws a
   * `PlannerError` (`unknown_resume_token`, `resume_token_in_use`), a bad decision `invalid_resume`.
   * Works on a new planner built from the same spec and store (e.g. after a restart).
   */
  resume(token: string, options: ResumeOptions): Promise<PlannerFinish | PlannerPause> {
    return resumeRun({
      config: this.config,
      token,
      options,
      restore: (state, runOptions) => new PlannerRun(this.config, { state }, runOptions),
    });
  }

  /**
   * Continues a run from a checkpoint its `onCheckpoint` sink received, after the process running it
   * stopped (`recoverRun`): completed steps are not repeated, a pure or read call that was in flight runs
   * again, and a write, external or stateful one pauses for a person. Throws `invalid_state` for a
   * document that is not a checkpoint.
   */
  recover(checkpoint: unknown, options: RecoverOptions = {}): Promise<PlannerFinish | PlannerPause> {
    return recoverRun({
      checkpoint,
      options,
      restore: (state, runOptions) => new PlannerRun(this.config, { state }, runOptions),
    });
  }

  /**
   * Runs one background task as a run of its own, for a `TaskHost` that runs tasks outside their turn: a
   * sub-agent's query (a forked planner: this planner's tools, hints and models, no tasks of its own) or one
   * tool call. It finishes with the task's result as `payload.artifacts.task_result` (a ContextCapsule, or
   * the tool's output), or fails: `subagent_paused` (it cannot wait for a person), `task_timeout`.
   */
  runTask(job: BackgroundJob, options: TaskRunOptions = {}): Promise<PlannerFinish | PlannerPause> {
    return runTaskJob(this.config, job, options);
  }

  /** Continues a task run whose worker stopped (see `recoverTaskJob`); `checkpoint` may be undefined. */
  recoverTask(
    job: BackgroundJob,
    checkpoint: unknown,
    options: TaskRecoverOptions = {},
  ): Promise<PlannerFinish | PlannerPause> {
    return recoverTaskJob(this.config, job, checkpoint, options);
  }

  /**
   * Forks an earlier run at `fromStep` (docs/forks.md): the steps before it are not executed again (the
   * state is rebuilt from their records), the edit applies at `fromStep`, and calls after it go through
   * `options.calls` (record and replay). The host copies the prefix's events; the fork's follow them.
   * Throws `invalid_fork` when the record lacks a step of the prefix.
   */
  fork(input: ForkInput, options: RunOptions = {}): Promise<PlannerFinish | PlannerPause> {
    return forkRun({
      config: this.config,
      fork: input,
      options,
      start: (query, runOptions) => new PlannerRun(this.config, { query }, runOptions).execute(),
      restore: (state, runOptions) => new PlannerRun(this.config, { state }, runOptions),
    });
  }

  /** Checks a fork's edit against the step it changes and this planner's tools (see `checkForkEdit`). */
  checkForkEdit(input: { fromStep: number; edit?: ForkEdit; records: readonly CallRecord[] }): ForkEditCheck {
    return checkForkEdit({
      catalog: this.config.catalog,
      fromStep: input.fromStep,
      edit: input.edit,
      target: getRecordedSteps(input.records)[input.fromStep],
    });
  }
}

/**
 * The router's candidates: each `candidateLlms` entry with its client (from the map, else the factory),
 * or — without either — its model name on the main client when it uses the same endpoint. Candidates
 * that cannot be reached are not offered to the router.
 */
function getCandidates(
  spec: AgentSpec,
  sources: {
    createLlmClient: LlmClientFactory | undefined;
    candidateLlms: FromSpecOptions["candidateLlms"];
  },
): CandidateLlm[] {
  const byId =
    sources.candidateLlms instanceof Map
      ? sources.candidateLlms
      : new Map(Object.entries((sources.candidateLlms ?? {}) as Record<string, LlmClient>));
  const candidates: CandidateLlm[] = [];
  for (const config of spec.candidateLlms ?? []) {
    const base = { id: config.id, description: config.description || config.model };
    const llm = byId.get(config.id) ?? sources.createLlmClient?.(config);
    if (llm !== undefined) candidates.push({ ...base, llm });
    else if (isSameEndpoint(config, spec.llm)) candidates.push({ ...base, model: config.model });
  }
  return candidates;
}

function isSameEndpoint(a: LlmConfig, b: LlmConfig): boolean {
  return a.provider === b.provider && a.baseUrl === b.baseUrl && a.apiKeyEnv === b.apiKeyEnv;
}

function withSpecPrice(
  table: PriceTable | undefined,
  model: string,
  price: LlmPrice | undefined,
): PriceTable | undefined {
  if (price === undefined) return table;
  return { ...table, [model]: price };
}
