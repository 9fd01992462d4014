import type { AgentSpec } from "@waddle/protocol";
import type {
  BackgroundJob,
  ImplResolver,
  LlmClient,
  CallRecord,
  ForkEditCheck,
  ForkInput,
  PlannerOutcome,
  RecoverOptions,
  ResumeOptions,
  RunOptions,
  TaskRecoverOptions,
  TaskRunOptions,
  ToolDefinition,
} from "@waddle/planner";
import type { ForkEdit } from "@waddle/protocol";

/** What the run executor needs of a planner (ReactPlanner has it). */
export interface RunnablePlanner {
  run(query: string, options: RunOptions): Promise<PlannerOutcome>;
  resume(token: string, options: ResumeOptions): Promise<PlannerOutcome>;
  /** Continues a run from its last checkpoint (queue mode, after its worker stopped). */
  recover?(checkpoint: unknown, options: RecoverOptions): Promise<PlannerOutcome>;
  /** Runs a session's background task as a run of its own (`ReactPlanner.runTask`). */
  runTask?(job: BackgroundJob, options: TaskRunOptions): Promise<PlannerOutcome>;
  /** Continues a task run whose worker stopped (queue mode). */
  recoverTask?(job: BackgroundJob, checkpoint: unknown, options: TaskRecoverOptions): Promise<PlannerOutcome>;
  /** Forks an earlier run from its record (`POST /api/runs/:id/fork`). */
  fork?(input: ForkInput, options: RunOptions): Promise<PlannerOutcome>;
  /** Checks a fork's edit against the step and this planner's tools, before the fork is queued. */
  checkForkEdit?(input: { fromStep: number; edit?: ForkEdit; records: readonly CallRecord[] }): ForkEditCheck;
}

export interface CreatePlannerOptions {
  spec: AgentSpec;
  runId: string;
  /** Shown in `run_started`. */
  agentVersion?: number;
  /** Subagent depth: 0 for a run, 1 for an agent tool's subagent, …. */
  depth?: number;
  /** Agent ids from the top run down to this one, to refuse cycles. */
  agentChain?: readonly string[];
  /** The epoch of the worker's claim on the run (queue mode): paused states are saved under it. */
  fence?: number;
  /** Run every LLM of the spec on the embedded offline model (the person chose it; `StartRunRequest.offline`). */
  offline?: boolean;
  /** Changes what the planner is built from (a test case serves its mocks and recorded replies so). */
  prepare?: (parts: PlannerParts) => PlannerParts;
}

/** The parts of a run's planner that `prepare` may replace. */
export interface PlannerParts {
  spec: AgentSpec;
  llm: LlmClient;
  moduleTools: ReadonlyMap<string, ToolDefinition>;
  resolveImpl: ImplResolver | undefined;
}

export interface CreatedPlanner {
  planner: RunnablePlanner;
  /** True when the main LLM is the embedded offline model. */
  offline: boolean;
}

/** Builds the planner of one run from its agent spec (LLM clients, module tools, tool kinds, state store). */
export type PlannerFactory = (options: CreatePlannerOptions) => Promise<CreatedPlanner>;
