import type {
  Edge,
  GuardCheck,
  GuardInput,
  JsonSchema,
  ParallelGroup,
  PlannerOptions,
  PlannerOptionsInput,
  PlanningHints,
  PlanningHintsInput,
  ReasoningEffort,
  ResponseFormat,
} from "@waddle/protocol";
import type { AutoSeqSetup } from "../auto-seq/auto-seq-setup.js";
import type { Catalog, CatalogTool } from "../catalog/catalog.js";
import type { HintConflict, ResolvedHints } from "../catalog/resolve-hints.js";
import type { LlmClient } from "../llm/llm-client.js";
import type { PriceTable } from "../llm/price-table.js";
import type { StateStore } from "../pause/state-store.js";
import type { OpcodeHandlers } from "../tasks/opcode-handlers.js";
import type { TaskTimers } from "../tasks/task-types.js";
import type { ApprovalGate } from "../tools/approval-gate.js";
import type { Sleep } from "../util/abortable-sleep.js";
import type { PlannerViewTool } from "../run/planner-view.js";
import type { GuardEngine } from "../guards/guard-engine.js";
import type { GuardChecksInput } from "../guards/create-guard-engine.js";

/** A model the reasoning router may pick (`reasoningEffort: "auto"`, the spec's `candidateLlms`). */
export interface CandidateLlm {
  id: string;
  /** Shown to the router: what the model is good at, how large it is. */
  description?: string;
  /** The client that runs the model when chosen. */
  llm?: LlmClient;
  /** Without `llm`: the model name passed to the main client (same endpoint). */
  model?: string;
}

/** What `new ReactPlanner(...)` accepts. Everything with I/O or time is injected. */
export interface ReactPlannerInit {
  llm: LlmClient;
  catalog: Catalog;
  options?: PlannerOptionsInput;
  hints?: PlanningHintsInput | PlanningHints;
  edges?: readonly Edge[];
  groups?: readonly ParallelGroup[];
  summarizerLlm?: LlmClient;
  routerLlm?: LlmClient;
  stateStore?: StateStore;
  /** Milliseconds since an epoch; event `ts`, durations and deadlines use it. Default `Date.now`. */
  clock?: () => number;
  /** Run ids and resume tokens. Default `crypto.randomUUID`. */
  createId?: () => string;
  /** Uniform in [0, 1): backoff jitter, mock `failRate`. Default `Math.random`. */
  random?: () => number;
  /** Backoff waits. Default a real timer that the signal cancels. */
  sleep?: Sleep;
  /** Prices by model, over the built-in table, for calls whose client reports no cost. */
  priceTable?: PriceTable;
  /** `low`/`medium`/`high` go to the client as is; `auto` is the router's (docs/reasoning-effort.md). */
  reasoningEffort?: ReasoningEffort;
  /** Response format asked of the client. Default `json_object`. */
  responseFormat?: ResponseFormat;
  /** Decides whether a tool call pauses for approval. Default: `requiresApproval` and `approvalSideEffects`. */
  approvalGate?: ApprovalGate;
  /** Tools the planner provides itself, appended to the catalog (`write_todos` is added when `todos.enabled`). */
  builtinTools?: readonly CatalogTool[];
  /** Models the router may choose from when `reasoningEffort` is `auto`. */
  candidateLlms?: readonly CandidateLlm[];
  /** Resume tokens. Default `createResumeToken()` (192 random bits, base64url). */
  createResumeToken?: () => string;
  /** Timers of background-task timeouts and `retain_turn` waits. Default the real ones. */
  taskTimers?: TaskTimers;
  /** Handlers of `task.subagent` / `task.tool`. Default: a "not enabled" failure observation. */
  opcodeHandlers?: Partial<OpcodeHandlers>;
  /** Shown in `run_started`. */
  agentId?: string;
  agentVersion?: number;
  /** Size bound of event previews, in characters. Default 2000. */
  previewChars?: number;
  /** The answer's JSON Schema (an object schema): every run's answer is then an object valid against it. */
  answerSchema?: JsonSchema;
  /** Checks on the query, tool results and the answer (docs/guides/guardrails.md). */
  guards?: readonly GuardInput[];
  /** The functions `module` checks name (`defineGuardCheck`). */
  guardChecks?: GuardChecksInput;
  /** The model of an `llm` check that names its own (`check.llm`); without it, such a check errors. */
  createGuardJudge?: (check: Extract<GuardCheck, { kind: "llm" }>) => LlmClient | undefined;
}

/** Everything a run reads from its planner, computed once at construction. Never mutated. */
export interface PlannerConfig {
  readonly llm: LlmClient;
  readonly summarizerLlm?: LlmClient;
  readonly routerLlm?: LlmClient;
  readonly catalog: Catalog;
  readonly options: PlannerOptions;
  readonly hints: ResolvedHints;
  readonly hintConflicts: readonly HintConflict[];
  readonly edges: readonly Edge[];
  readonly groups: readonly ParallelGroup[];
  readonly systemPrompt: string;
  readonly viewTools: readonly PlannerViewTool[];
  readonly toolNames: ReadonlySet<string>;
  readonly clock: () => number;
  readonly createId: () => string;
  readonly random: () => number;
  readonly sleep: Sleep;
  /** Where paused runs wait: the one given, else an `InMemoryStateStore` of this planner. */
  readonly stateStore: StateStore;
  readonly createResumeToken: () => string;
  readonly candidates: readonly CandidateLlm[];
  /** Set when `autoSeq.enabled`: the tools detection scans, their output type names, the cache. */
  readonly autoSeq?: AutoSeqSetup;
  /** The built-in `write_todos` tool, when `todos.enabled`. */
  readonly writeTodosTool?: CatalogTool;
  /** True when the caller replaced a task opcode handler: background tasks are then theirs. */
  readonly customOpcodeHandlers: boolean;
  readonly taskTimers?: TaskTimers;
  readonly priceTable?: PriceTable;
  readonly reasoningEffort?: ReasoningEffort;
  readonly responseFormat: ResponseFormat;
  readonly approvalGate: ApprovalGate;
  readonly opcodeHandlers: OpcodeHandlers;
  readonly agentId?: string;
  readonly agentVersion?: number;
  readonly previewChars: number;
  readonly answerSchema?: JsonSchema;
  /** The agent's guards, when it has some. */
  readonly guards?: GuardEngine;
}
