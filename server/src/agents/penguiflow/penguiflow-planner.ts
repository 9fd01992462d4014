import type { AgentSpec, LlmConfig } from "@waddle/protocol";
import { toPythonComment, toPythonLiteral, toPythonString } from "./python-source.js";
import type { PenguiflowReport } from "./penguiflow-report.js";

/** PenguiFlow's LiteLLM-style `llm`: a model name, or a dict with the endpoint and the key from the env. */
function toLiteLlm(config: LlmConfig): string {
  if (config.provider === "offline") return "None";
  const keyEnv = config.apiKeyEnv ?? "OPENAI_API_KEY";
  const fields = [
    `"model": ${toPythonString(`openai/${config.model}`)}`,
    `"api_key": os.environ.get(${toPythonString(keyEnv)})`,
    config.baseUrl
      ? `"api_base": ${toPythonString(config.baseUrl)}`
      : `"api_base": os.environ.get("OPENAI_BASE_URL")`,
    `"temperature": ${toPythonLiteral(config.temperature)}`,
  ];
  return `{${fields.join(", ")}}`;
}

/** `planning_hints` with the spec's groups added to `parallel_groups`, as PenguiFlow reads them. */
function getPlanningHints(spec: AgentSpec): Record<string, unknown> {
  const groups = [...spec.hints.parallel_groups];
  for (const group of spec.groups) {
    if (!groups.some((members) => JSON.stringify(members) === JSON.stringify(group.members)))
      groups.push(group.members);
  }
  const budget: Record<string, unknown> = {};
  if (spec.hints.budget_hints.max_parallel !== undefined)
    budget.max_parallel = spec.hints.budget_hints.max_parallel;
  if (spec.hints.budget_hints.max_cost_usd !== undefined)
    budget.max_cost_usd = spec.hints.budget_hints.max_cost_usd;
  return {
    ordering_hints: spec.hints.ordering_hints,
    parallel_groups: groups,
    sequential_only: spec.hints.sequential_only,
    disallow_nodes: spec.hints.disallow_nodes,
    prefer_nodes: spec.hints.prefer_nodes,
    budget_hints: budget,
  };
}

/**
 * `BackgroundTasksConfig(…)`: PenguiFlow's pydantic model, not a dict (ReactPlanner reads `.enabled` from it).
 * Its `task_timeout_s` is an int, so a fractional timeout is rounded up; Waddle's per-run cap has no field
 * (PenguiFlow caps per session) and stays in WADDLE_ONLY.
 */
function getBackgroundTasks(spec: AgentSpec, report: PenguiflowReport): string {
  const tasks = spec.planner.tasks;
  const timeoutS = Math.ceil(tasks.timeoutS);
  if (timeoutS !== tasks.timeoutS) {
    report.notCarried.push({
      what: `planner.tasks.timeoutS ${tasks.timeoutS}`,
      where: `BackgroundTasksConfig.task_timeout_s is whole seconds: ${timeoutS}`,
    });
  }
  if (tasks.enabled && tasks.spawnRequiresConfirmation === undefined) {
    report.notCarried.push({
      what: "planner.tasks.spawnRequiresConfirmation unset (the model asks before spawning)",
      where: "BackgroundTasksConfig.spawn_requires_confirmation keeps PenguiFlow's default, False",
    });
  }
  const fields = [
    `enabled=${toPythonLiteral(tasks.enabled)}`,
    ...(tasks.spawnRequiresConfirmation !== undefined
      ? [`spawn_requires_confirmation=${toPythonLiteral(tasks.spawnRequiresConfirmation)}`]
      : []),
    `max_concurrent_tasks=${tasks.maxConcurrent}`,
    `task_timeout_s=${timeoutS}`,
    `default_merge_strategy=${toPythonString(tasks.defaultMergeStrategy)}`,
  ];
  return `BackgroundTasksConfig(\n${fields.map((field) => `            ${field},`).join("\n")}\n        )`;
}

/** What ReactPlanner has no argument for, kept in planner.py as data; each entry goes to the README. */
function getWaddleOnly(spec: AgentSpec, report: PenguiflowReport): Record<string, unknown> {
  const planner = spec.planner;
  const waddleOnly = {
    action_format: planner.actionFormat,
    max_parallel_cap: planner.maxParallelCap,
    approval_side_effects: planner.approvalSideEffects,
    tool_retry: planner.toolRetry,
    tool_timeout_ms: planner.toolTimeoutMs,
    todos_enabled: planner.todos.enabled,
    // PenguiFlow has no stuck-run breaker: only its iteration and budget caps stop a loop.
    stuck: planner.stuck,
    tasks_max_per_run: planner.tasks.maxPerRun,
    ...(planner.tasks.autoSeq ? { tasks_auto_seq: planner.tasks.autoSeq } : {}),
    groups: spec.groups,
    edges: spec.edges,
    ...(spec.llm.reasoningEffort === "auto" ? { reasoning_effort: "auto" } : {}),
    ...(spec.routerLlm ? { router_llm: spec.routerLlm } : {}),
    ...(spec.candidateLlms ? { candidate_llms: spec.candidateLlms } : {}),
    ...(spec.approval
      ? { approval: { timeout_s: spec.approval.timeoutS, on_timeout: spec.approval.onTimeout } }
      : {}),
  };
  for (const [key, value] of Object.entries(waddleOnly)) {
    if (Array.isArray(value) && value.length === 0) continue;
    report.notCarried.push({ what: key, where: "planner.py WADDLE_ONLY" });
  }
  // PenguiFlow takes a join only inside the model's parallel action (`args.join`), never from configuration.
  for (const group of spec.groups) {
    if (group.join) {
      report.notCarried.push({
        what: `group ${group.id} join (${group.join.tool}, inject ${JSON.stringify(group.join.inject)})`,
        where:
          "not carried: PenguiFlow takes a join only in the model's parallel action; kept in planner.py WADDLE_ONLY",
      });
    }
    if (group.maxParallel !== undefined) {
      report.notCarried.push({
        what: `group ${group.id} maxParallel ${group.maxParallel}`,
        where: "not carried: PenguiFlow has one budget_hints.max_parallel; kept in planner.py WADDLE_ONLY",
      });
    }
  }
  // PenguiFlow has no guardrails: nothing checks the query, tool results or the answer there.
  for (const guard of spec.guards) {
    report.notCarried.push({
      what: `guard ${guard.name} (on ${guard.on}, check ${guard.check.kind}, action ${guard.action})`,
      where:
        "not carried: PenguiFlow has no guardrails, so nothing checks it there; kept in planner.py WADDLE_ONLY",
    });
  }
  return spec.guards.length > 0 ? { ...waddleOnly, guards: spec.guards } : waddleOnly;
}

/** planner.py: `build_planner()` builds ReactPlanner with the keywords and types of PenguiFlow's signature. */
export function getPenguiflowPlanner(spec: AgentSpec, report: PenguiflowReport): string {
  const planner = spec.planner;
  const waddleOnly = getWaddleOnly(spec, report);
  const effort = spec.llm.reasoningEffort;
  const llmComment =
    spec.llm.provider === "offline"
      ? [
          `# Waddle's embedded offline model has no PenguiFlow counterpart: set LLM, or pass llm= to build_planner.`,
        ]
      : [];
  return [
    `# Builds PenguiFlow's ReactPlanner for a Waddle agent. Generated by Waddle: re-export to change it.`,
    `# Agent: ${toPythonComment(spec.name)}`,
    `import os`,
    `from typing import Any`,
    ``,
    `from penguiflow.planner import BackgroundTasksConfig, ReactPlanner`,
    ``,
    `from catalog import CATALOG, registry`,
    ``,
    ...llmComment,
    `LLM: Any = ${toLiteLlm(spec.llm)}`,
    `SUMMARIZER_LLM: Any = ${spec.summarizerLlm ? toLiteLlm(spec.summarizerLlm) : "None"}`,
    ``,
    `PLANNING_HINTS: dict[str, Any] = ${toPythonLiteral(getPlanningHints(spec))}`,
    ``,
    `SYSTEM_PROMPT_EXTRA: str = ${toPythonString(planner.systemPromptExtra)}`,
    ``,
    `# What Waddle has and ReactPlanner takes no argument for: order and auto-seq edges (also in each target's`,
    `# NodeSpec.extra), parallel groups' joins and caps, and the planner switches below. Kept here as data.`,
    `WADDLE_ONLY: dict[str, Any] = ${toPythonLiteral(waddleOnly)}`,
    ``,
    ``,
    `def build_planner(llm: Any = None, **overrides: Any) -> ReactPlanner:`,
    `    """ReactPlanner with the agent's catalog, hints, limits and switches; overrides win."""`,
    `    options: dict[str, Any] = {`,
    `        "llm": llm if llm is not None else LLM,`,
    `        "catalog": CATALOG,`,
    `        "registry": registry,`,
    `        "planning_hints": PLANNING_HINTS,`,
    `        "system_prompt_extra": SYSTEM_PROMPT_EXTRA or None,`,
    `        "temperature": ${toPythonLiteral(spec.llm.temperature)},`,
    `        "max_iters": ${planner.maxIters},`,
    `        "hop_budget": ${toPythonLiteral(planner.hopBudget)},`,
    `        "deadline_s": ${toPythonLiteral(planner.deadlineS)},`,
    `        "token_budget": ${toPythonLiteral(planner.tokenBudget)},`,
    `        "repair_attempts": ${planner.repairAttempts},`,
    `        "arg_fill_enabled": ${toPythonLiteral(planner.argFill)},`,
    `        "max_consecutive_arg_failures": ${planner.maxConsecutiveArgFailures},`,
    `        "auto_seq_enabled": ${toPythonLiteral(planner.autoSeq.enabled)},`,
    `        "auto_seq_execute": ${toPythonLiteral(planner.autoSeq.execute)},`,
    `        "auto_seq_read_only_only": ${toPythonLiteral(planner.autoSeq.readOnlyOnly)},`,
    `        "pause_enabled": ${toPythonLiteral(planner.pauseEnabled ?? true)},`,
    `        "background_tasks": ${getBackgroundTasks(spec, report)},`,
    `        "stream_final_response": True,`,
    ...(spec.summarizerLlm ? [`        "summarizer_llm": SUMMARIZER_LLM,`] : []),
    ...(effort && effort !== "auto" ? [`        "reasoning_effort": ${toPythonString(effort)},`] : []),
    `    }`,
    `    options.update(overrides)`,
    ...(spec.llm.provider === "offline"
      ? [
          `    if options["llm"] is None and options.get("llm_client") is None:`,
          `        raise ValueError(`,
          `            "This agent ran on Waddle's offline model, which PenguiFlow does not have: set LLM in planner.py "`,
          `            "or call build_planner(llm=...) with a LiteLLM model name or dict, or with llm_client=..."`,
          `        )`,
        ]
      : []),
    `    return ReactPlanner(**options)`,
    ``,
    ``,
    `if __name__ == "__main__":`,
    `    import asyncio`,
    `    import sys`,
    ``,
    `    async def _main() -> None:`,
    `        result = await build_planner().run(" ".join(sys.argv[1:]) or "hello")`,
    `        print(result)`,
    ``,
    `    asyncio.run(_main())`,
    ``,
  ].join("\n");
}
