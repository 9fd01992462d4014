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
import { abortableSleep, type Sleep } from "./abortable-sleep.js";
import { defaultApprovalGate, type ApprovalGate } from "./approval-gate.js";
import type { Catalog, CatalogTool } from "./catalog.js";
import { formatIssues } from "./rejections.js";
import type { LlmClient } from "./llm-client.js";
import { DEFAULT_OPCODE_HANDLERS, type OpcodeHandlers } from "./opcode-handlers.js";
import { PlannerError } from "./planner-error.js";
import type { PlannerViewTool } from "./planner-view.js";
import type { PriceTable } from "./price-table.js";
import { findHintConflicts, resolveHints, type HintConflict, type ResolvedHints } from "./resolve-hints.js";
import type { StateStore } from "./state-store.js";
import { buildSystemPrompt } from "./system-prompt.js";

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
  /** Tools the planner provides itself (`write_todos`): appended to the catalog. */
  builtinTools?: readonly CatalogTool[];
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
  readonly stateStore?: StateStore;
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
  const catalog = init.catalog.extend(init.builtinTools ?? []);
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
    previewChars: init.previewChars ?? 2_000,
    ...optionalFields(init),
  };
  return config;
}

function optionalFields(init: ReactPlannerInit): Partial<PlannerConfig> {
  const out: {
    summarizerLlm?: LlmClient;
    routerLlm?: LlmClient;
    stateStore?: StateStore;
    priceTable?: PriceTable;
    reasoningEffort?: ReasoningEffort;
    agentId?: string;
    agentVersion?: number;
  } = {};
  if (init.summarizerLlm !== undefined) out.summarizerLlm = init.summarizerLlm;
  if (init.routerLlm !== undefined) out.routerLlm = init.routerLlm;
  if (init.stateStore !== undefined) out.stateStore = init.stateStore;
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
