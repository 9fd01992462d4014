import type { AgentSpec } from "@waddle/protocol";
import { toPythonComment } from "./python-source.js";
import type { PenguiflowReport } from "./penguiflow-report.js";

/** Waddle field → PenguiFlow name, as the export maps them (also in the repository README). */
export const PENGUIFLOW_MAPPING: readonly [string, string][] = [
  ["tools[].name", "NodeSpec.name, Node(name=…), ModelRegistry.register(name, …)"],
  ["tools[].desc", "NodeSpec.desc"],
  ["tools[].argsSchema / outSchema", "NodeSpec.args_model / out_model (pydantic BaseModel)"],
  ["tools[].sideEffects", "NodeSpec.side_effects"],
  ["tools[].tags / authScopes", "NodeSpec.tags / auth_scopes"],
  ["tools[].costHint / latencyHintMs / safetyNotes", "NodeSpec.cost_hint / latency_hint_ms / safety_notes"],
  ["tools[].autoSeq / autoSeqExecute", 'NodeSpec.extra["auto_seq"] / extra["auto_seq_execute"]'],
  ["tools[].extra", "NodeSpec.extra (verbatim, e.g. arg_validation)"],
  [
    "tools[].requiresApproval / retry / timeoutMs / costUsd",
    "NodeSpec.extra requires_approval / retry / timeout_ms / cost_usd",
  ],
  ["tools[].approval {timeoutS, onTimeout}", "NodeSpec.extra approval {timeout_s, on_timeout}"],
  ["approval (the agent's time limit on waiting)", "planner.py WADDLE_ONLY approval {timeout_s, on_timeout}"],
  ["edges (auto_seq / order)", "target's NodeSpec.extra auto_seq_from / order_after"],
  ["hints", "planning_hints (verbatim keys)"],
  ["groups[].members", "planning_hints.parallel_groups (join and maxParallel: not carried, see below)"],
  ["planner.systemPromptExtra", "system_prompt_extra"],
  [
    "planner.maxIters / hopBudget / deadlineS / tokenBudget",
    "max_iters / hop_budget / deadline_s / token_budget",
  ],
  [
    "planner.repairAttempts / argFill / maxConsecutiveArgFailures",
    "repair_attempts / arg_fill_enabled / max_consecutive_arg_failures",
  ],
  [
    "planner.autoSeq.enabled / execute / readOnlyOnly",
    "auto_seq_enabled / auto_seq_execute / auto_seq_read_only_only",
  ],
  ["planner.pauseEnabled", "pause_enabled"],
  [
    "planner.tasks.enabled / spawnRequiresConfirmation / maxConcurrent / timeoutS / defaultMergeStrategy",
    "background_tasks=BackgroundTasksConfig(enabled / spawn_requires_confirmation / max_concurrent_tasks / task_timeout_s / default_merge_strategy)",
  ],
  ["llm / summarizerLlm", "llm / summarizer_llm (LiteLLM-style dict)"],
  ["llm.temperature", "temperature (and in the llm dict)"],
  ["llm.reasoningEffort", "reasoning_effort (low, medium, high; auto stays in WADDLE_ONLY)"],
  ["guards", "not carried: PenguiFlow has no guardrails (each guard is listed below, kept in WADDLE_ONLY)"],
];

const cell = (text: string) => toPythonComment(text).replaceAll("|", "\\|").replaceAll("`", "'");

/** README.md of a PenguiFlow export: how to run it, the mapping, and everything that was not carried. */
export function getPenguiflowReadme(spec: AgentSpec, report: PenguiflowReport): string {
  const lines = [
    `# ${cell(spec.name)} (PenguiFlow export)`,
    "",
    "Exported from Waddle for PenguiFlow's `ReactPlanner`.",
    "",
    "```sh",
    "pip install -r requirements.txt",
    "export OPENAI_API_KEY=…   # and WADDLE_SECRET_<NAME> for http tools' secret headers",
    'python planner.py "your question"',
    "```",
    "",
    ...(spec.llm.provider === "offline"
      ? [
          "This agent ran on Waddle's embedded offline model, which PenguiFlow does not have: set `LLM` in `planner.py`",
          '(a LiteLLM model name such as `"openai/gpt-4o-mini"`, or a dict) or call `build_planner(llm=…)` or',
          "`build_planner(llm_client=…)`; until then `build_planner()` raises a `ValueError` saying so.",
          "",
        ]
      : []),
    "- `catalog.py`: one pydantic model for each tool's args and one for its output, the tools' async",
    "  functions (mock tools return their template, http tools call with httpx, llm tools with the openai",
    "  package), the `ModelRegistry` and a `NodeSpec` per tool in `CATALOG`.",
    "- `planner.py`: `build_planner()` builds `ReactPlanner` with the catalog, `planning_hints`,",
    "  `system_prompt_extra`, the limits and the switches.",
    "- `waddle-agent.json`: the Waddle spec; `POST /api/agents/import` takes it back unchanged.",
    "",
    "## Mapping",
    "",
    "| Waddle | PenguiFlow |",
    "| --- | --- |",
    ...PENGUIFLOW_MAPPING.map(([waddle, penguiflow]) => `| ${cell(waddle)} | ${cell(penguiflow)} |`),
    "",
    "## Models",
    "",
    "| tool | args model | output model |",
    "| --- | --- | --- |",
    ...report.models.map((model) => `| ${model.tool} | ${model.args} | ${model.out} |`),
  ];
  if (report.toolFunctions.length > 0 || report.renamedFields.length > 0) {
    lines.push("", "## Renamed names", "", "Names that are not usable Python identifiers are mapped:", "");
    for (const entry of report.toolFunctions)
      lines.push(`- tool ${entry.tool} → function \`${entry.function}\``);
    for (const entry of report.renamedFields) {
      lines.push(
        `- ${entry.model}: property ${cell(JSON.stringify(entry.property))} → field \`${entry.field}\` (its alias)`,
      );
    }
  }
  if (report.lossy.length > 0) {
    lines.push("", "## Schemas pydantic cannot express", "");
    for (const entry of report.lossy) {
      lines.push(
        `- ${entry.model} at ${cell(entry.path)}: ${cell(entry.feature)} (kept as \`dict[str, Any]\` or \`Any\`).`,
      );
    }
  }
  lines.push("", "## Not carried as PenguiFlow arguments", "");
  if (report.notCarried.length === 0) lines.push("Nothing: every setting has a PenguiFlow name.");
  for (const entry of report.notCarried) lines.push(`- ${cell(entry.what)}: ${cell(entry.where)}`);
  lines.push(
    "",
    "`background_tasks` is PenguiFlow's `BackgroundTasksConfig`; its fields that Waddle has no setting for",
    "keep PenguiFlow's defaults. Checked against PenguiFlow 3.6.4.",
    "",
  );
  return lines.join("\n");
}
