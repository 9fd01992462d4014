import {
  PlannerOptions,
  type Edge,
  type ParallelGroup,
  type PlannerOptionsInput,
  type PlanningHints,
  type PlanningHintsInput,
  type ReasoningEffort,
  type ResponseFormat,
} from "@waddle/protocol";
import { abortableSleep, type Sleep } from "../util/abortable-sleep.js";
import { defaultApprovalGate, type ApprovalGate } from "../tools/approval-gate.js";
import { createAutoSeqSetup, type AutoSeqSetup } from "../auto-seq/auto-seq-runner.js";
import type { Catalog, CatalogTool } from "../catalog/catalog.js";
import { formatIssues } from "../util/format-issues.js";
import { InMemoryStateStore } from "../pause/in-memory-state-store.js";
import type { LlmClient } from "../llm/llm-client.js";
import { DEFAULT_OPCODE_HANDLERS, type OpcodeHandlers } from "../tasks/opcode-handlers.js";
import { PlannerError } from "../errors/planner-error.js";
import type { PlannerViewTool } from "../run/planner-view.js";
import type { PriceTable } from "../llm/price-table.js";
import {
  findHintConflicts,
  resolveHints,
  type HintConflict,
  type ResolvedHints,
} from "../catalog/resolve-hints.js";
import { createResumeToken } from "../pause/resume-token.js";
import type { StateStore } from "../pause/state-store.js";
import { buildSystemPrompt } from "../prompt/system-prompt.js";
import type { TaskTimers } from "../tasks/task-types.js";
import { createWriteTodosTool } from "../todos/todos-step.js";

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
  /** `low`/`medium`/`high` go to the client as is; `auto` is the router's (issue 4). */
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
}

/** Validates options, resolves hints and builds the prompt: the per-planner work, done once. */
export function createPlannerConfig(init: ReactPlannerInit): PlannerConfig {
  const parsed = PlannerOptions.safeParse(init.options ?? {});
  if (!parsed.success) {
    throw new PlannerError(
      "invalid_options",
      `Planner options are invalid: ${formatIssues(parsed.error.issues)}.`,
      {
        details: {
          issues: parsed.error.issues.map((issue) => ({ path: issue.path, message: issue.message })),
        },
      },
    );
  }
  const options = parsed.data;
  const builtins = [...(init.builtinTools ?? [])];
  const writeTodosTool =
    options.todos.enabled && !builtins.some((tool) => tool.name === "write_todos")
      ? createWriteTodosTool()
      : builtins.find((tool) => tool.name === "write_todos");
  if (writeTodosTool !== undefined && !builtins.includes(writeTodosTool)) builtins.push(writeTodosTool);
  const catalog = init.catalog.extend(builtins);
  const hints = resolveHints({ hints: init.hints, edges: init.edges, groups: init.groups });
  const config: PlannerConfig = {
    llm: init.llm,
    catalog,
    options,
    hints,
    hintConflicts: findHintConflicts(hints, catalog),
    edges: init.edges ?? [],
    groups: init.groups ?? [],
    systemPrompt: buildSystemPrompt({ catalog, hints, options }),
    viewTools: catalog.tools.map(toViewTool),
    toolNames: new Set(catalog.names),
    clock: init.clock ?? Date.now,
    createId: init.createId ?? (() => globalThis.crypto.randomUUID()),
    random: init.random ?? Math.random,
    sleep: init.sleep ?? abortableSleep,
    responseFormat: init.responseFormat ?? "json_object",
    approvalGate: init.approvalGate ?? defaultApprovalGate,
    opcodeHandlers: { ...DEFAULT_OPCODE_HANDLERS, ...init.opcodeHandlers },
    customOpcodeHandlers: init.opcodeHandlers !== undefined && Object.keys(init.opcodeHandlers).length > 0,
    previewChars: init.previewChars ?? 2_000,
    stateStore: init.stateStore ?? new InMemoryStateStore(),
    createResumeToken: init.createResumeToken ?? (() => createResumeToken()),
    candidates: init.candidateLlms ?? [],
    ...(options.autoSeq.enabled ? { autoSeq: createAutoSeqSetup(catalog) } : {}),
    ...(writeTodosTool === undefined ? {} : { writeTodosTool }),
    ...optionalFields(init),
  };
  return config;
}

function optionalFields(init: ReactPlannerInit): Partial<PlannerConfig> {
  const out: {
    summarizerLlm?: LlmClient;
    routerLlm?: LlmClient;
    taskTimers?: TaskTimers;
    priceTable?: PriceTable;
    reasoningEffort?: ReasoningEffort;
    agentId?: string;
    agentVersion?: number;
  } = {};
  if (init.summarizerLlm !== undefined) out.summarizerLlm = init.summarizerLlm;
  if (init.routerLlm !== undefined) out.routerLlm = init.routerLlm;
  if (init.taskTimers !== undefined) out.taskTimers = init.taskTimers;
  if (init.priceTable !== undefined) out.priceTable = init.priceTable;
  if (init.reasoningEffort !== undefined) out.reasoningEffort = init.reasoningEffort;
  if (init.agentId !== undefined) out.agentId = init.agentId;
  if (init.agentVersion !== undefined) out.agentVersion = init.agentVersion;
  return out;
}

function toViewTool(tool: CatalogTool): PlannerViewTool {
  return {
    name: tool.name,
    desc: tool.desc,
    sideEffects: tool.sideEffects,
    tags: tool.tags,
    argsSchema: tool.argsSchema,
    outSchema: tool.outSchema,
    autoSeq: tool.autoSeq,
    requiresApproval: tool.requiresApproval,
  };
}
