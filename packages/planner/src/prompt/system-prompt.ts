import type { PlannerOptions } from "@waddle/protocol";
import type { Catalog, CatalogTool } from "../catalog/catalog.js";
import { renderHints } from "./render-hints.js";
import type { ResolvedHints } from "../catalog/resolve-hints.js";

export interface SystemPromptInput {
  catalog: Catalog;
  hints: ResolvedHints;
  options: PlannerOptions;
}

const UNIFIED_FORMAT = `Reply with exactly one JSON object: {"next_node": "<tool name or opcode>", "args": {...}}.
- Call a tool: {"next_node": "<tool name>", "args": {<fields of its args_schema>}}
- Run independent tools in parallel: {"next_node": "parallel", "args": {"steps": [{"node": "<tool>", "args": {...}}, ...], "join": {"node": "<tool>", "args": {...}, "inject": {"<join arg>": "$results"}}}}. The join is optional; inject sources: $results, $branches, $failures, $success_count, $failure_count, $expect. Without a join, every branch result comes back to you.
- Answer the user: {"next_node": "final_response", "args": {"answer": "<text shown to the user>"}}. Optional: "sources" (list of objects), "suggested_actions", "confidence" (0 to 1), "language" (ISO 639-1), "artifacts" (object), "requires_followup" (boolean).`;

const TASK_FORMAT = `- Start a background task: {"next_node": "task.subagent", "args": {"name": "...", "query": "..."}} (a helper agent works on the query with your tools and returns a short report) or {"next_node": "task.tool", "args": {"name": "...", "tool": "<tool>", "tool_args": {...}}} (one tool call). Optional args: "merge_strategy" (APPEND, REPLACE or HUMAN_GATED: a person approves the results first), "group" (a name: tasks with the same name in this turn form one group), "group_id", "group_sealed", "group_report" (all, any or none), "group_merge_strategy", "retain_turn".
- Results of background tasks arrive as {"task_results": ...} messages. In a one-off run, tasks still running when you answer are cancelled; in a conversation (a session) they go on after your answer and their results reach you at a later turn. When your answer needs their results now, set "retain_turn": true on the last task of the group (it seals the group and waits for it before your next step).`;

/** Without a configured confirmation the model asks the user itself (docs/task-opcodes.md). */
const TASK_CONFIRMATION = `- Before starting a background task, make sure the user wants it: unless their request already asks for background work and says whether to wait for it, answer with final_response asking them to confirm the task and whether you should keep the turn until it is done (retain_turn) or let them continue meanwhile.`;

const LEGACY_FORMAT = `Reply with exactly one JSON object: {"thought": "<one short sentence>", "next_node": "<tool name>" or null, "args": {...} or null, "plan": [...] or null, "join": {...} or null}.
- Call a tool: {"thought": "...", "next_node": "<tool>", "args": {<fields of its args_schema>}, "plan": null, "join": null}
- Run independent tools in parallel: {"thought": "...", "next_node": null, "args": null, "plan": [{"node": "<tool>", "args": {...}}, ...], "join": {"node": "<tool>", "args": {...}, "inject": {"<join arg>": "$results"}} or null}
- Answer the user: {"thought": "...", "next_node": null, "args": {"raw_answer": "<text shown to the user>"}, "plan": null, "join": null}`;

const RULES = `Rules:
- Output valid JSON only: no prose, no markdown fences.
- Call only the tools listed below, with args that match their args_schema.
- Answer only once you have what you need; the answer is shown to the user as is.
- After an observation with "failure", choose a revised action that avoids its cause (other args or another tool), or answer with what you have.
- Use parallel only for calls that do not depend on each other.`;

/**
 * The planner's system prompt: role, the action format (per `actionFormat`), rules, budgets, the tool
 * catalog with compact schemas, the hints rendered succinctly, then `systemPromptExtra` verbatim. Built
 * once per planner: it does not change during a run.
 */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const { catalog, hints, options } = input;
  const sections: string[] = [
    "You are the planner of a ReAct agent. You reach the user's goal one step at a time by calling tools, and you answer when you have what you need.",
    options.actionFormat === "legacy" ? LEGACY_FORMAT : renderUnifiedFormat(options),
    RULES,
  ];
  const budgets = renderBudgets(options);
  if (budgets.length > 0)
    sections.push(`Budgets (respect them):\n${budgets.map((line) => `- ${line}`).join("\n")}`);
  sections.push(renderTools(catalog));
  const hintLines = renderHints(hints, catalog, options.maxParallelCap);
  if (hintLines.length > 0)
    sections.push(`Planning hints:\n${hintLines.map((line) => `- ${line}`).join("\n")}`);
  const extra = options.systemPromptExtra.trim();
  if (extra.length > 0) sections.push(extra);
  return sections.join("\n\n");
}

function renderUnifiedFormat(options: PlannerOptions): string {
  if (!options.tasks.enabled) return UNIFIED_FORMAT;
  const confirmation = options.tasks.spawnRequiresConfirmation === undefined ? `\n${TASK_CONFIRMATION}` : "";
  return `${UNIFIED_FORMAT}\n${TASK_FORMAT}${confirmation}`;
}

function renderBudgets(options: PlannerOptions): string[] {
  const lines: string[] = [`At most ${options.maxIters} steps.`];
  if (options.hopBudget !== undefined) lines.push(`At most ${options.hopBudget} tool calls in total.`);
  if (options.deadlineS !== undefined) lines.push(`Finish within ${options.deadlineS} seconds.`);
  return lines;
}

/** `TOOLS (JSON):` then one numbered entry per tool (docs/messages-and-prompt.md). */
export function renderTools(catalog: Catalog): string {
  if (catalog.size === 0) return "Tools: none. Answer with final_response.";
  const entries = catalog.tools.map((tool, index) => renderTool(tool, index + 1));
  return `Tools:\n${entries.join("\n")}`;
}

function renderTool(tool: CatalogTool, number: number): string {
  const facts: string[] = [tool.sideEffects];
  if (tool.tags.length > 0) facts.push(`tags: ${tool.tags.join(", ")}`);
  if (tool.costHint !== undefined) facts.push(`cost: ${tool.costHint}`);
  if (tool.latencyHintMs !== undefined) facts.push(`~${tool.latencyHintMs} ms`);
  if (tool.requiresApproval) facts.push("needs approval");
  const lines = [`${number}) ${tool.name} — ${tool.desc} (${facts.join("; ")})`];
  if (tool.safetyNotes !== undefined) lines.push(`   safety: ${tool.safetyNotes}`);
  lines.push(`   args_schema: ${JSON.stringify(tool.argsSchema)}`);
  lines.push(`   out_schema: ${JSON.stringify(tool.outSchema)}`);
  return lines.join("\n");
}
