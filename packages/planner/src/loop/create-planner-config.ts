import { PlannerOptions, type ReasoningEffort } from "@waddle/protocol";
import { createAutoSeqSetup } from "../auto-seq/auto-seq-setup.js";
import type { CatalogTool } from "../catalog/catalog.js";
import { findHintConflicts, resolveHints } from "../catalog/resolve-hints.js";
import { PlannerError } from "../errors/planner-error.js";
import type { LlmClient } from "../llm/llm-client.js";
import type { PriceTable } from "../llm/price-table.js";
import { InMemoryStateStore } from "../pause/in-memory-state-store.js";
import { createResumeToken } from "../pause/resume-token.js";
import { buildSystemPrompt } from "../prompt/system-prompt.js";
import type { PlannerConfig, ReactPlannerInit } from "./planner-config.js";
import type { PlannerViewTool } from "../run/planner-view.js";
import { DEFAULT_OPCODE_HANDLERS } from "../tasks/opcode-handlers.js";
import type { TaskTimers } from "../tasks/task-types.js";
import { createWriteTodosTool } from "../todos/write-todos-tool.js";
import { defaultApprovalGate } from "../tools/approval-gate.js";
import { abortableSleep } from "../util/abortable-sleep.js";
import { formatIssues } from "../util/format-issues.js";
import { createGuardEngine } from "../guards/create-guard-engine.js";

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
    ...(init.answerSchema === undefined ? {} : { answerSchema: init.answerSchema }),
    stateStore: init.stateStore ?? new InMemoryStateStore(),
    createResumeToken: init.createResumeToken ?? (() => createResumeToken()),
    candidates: init.candidateLlms ?? [],
    ...(options.autoSeq.enabled ? { autoSeq: createAutoSeqSetup(catalog) } : {}),
    ...(writeTodosTool === undefined ? {} : { writeTodosTool }),
    ...optionalFields(init),
  };
  const guards = createGuardEngine({
    guards: init.guards,
    agentLlm: init.llm,
    ...(init.guardChecks === undefined ? {} : { guardChecks: init.guardChecks }),
    ...(init.createGuardJudge === undefined ? {} : { createJudge: init.createGuardJudge }),
    clock: config.clock,
  });
  return guards === undefined ? config : { ...config, guards };
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
