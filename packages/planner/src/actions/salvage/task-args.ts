// Task opcodes as weak models write them: `task` with or without `mode`, names, enum spellings
// (docs/task-opcodes.md).
import { isRecord, rewrite, type Json, type Rewrites } from "./rewrites.js";

/**
 * `task` with `mode`, or without: a string `query` means a subagent (even beside a `tool`, whose job would
 * have no args), a `tool` alone a tool job.
 */
export function toTask(args: Json, rewrites: Rewrites): Json {
  const { mode, ...rest } = args;
  const hasQuery = typeof rest.query === "string" && rest.query.trim().length > 0;
  const isTool =
    mode === "job" || mode === "tool" || (mode === undefined && !hasQuery && typeof rest.tool === "string");
  rewrite(rewrites, "synonym:task");
  if (mode === undefined && hasQuery && typeof rest.tool === "string") {
    rewrite(
      rewrites,
      "task_query_wins",
      `the task had a query and tool "${rest.tool}": the query wins, read as task.subagent (no ${rest.tool} job)`,
    );
    delete rest.tool;
    delete rest.tool_args;
  }
  if (isTool && rest.tool_args === undefined && isRecord(rest.args)) {
    rest.tool_args = rest.args;
    delete rest.args;
  }
  const opcode = isTool ? "task.tool" : "task.subagent";
  return { next_node: opcode, args: loosenTaskArgs(opcode, rest, rewrites) };
}

const MERGE_STRATEGIES: Readonly<Record<string, string>> = {
  HUMANGATED: "HUMAN_GATED",
  APPEND: "APPEND",
  REPLACE: "REPLACE",
};

const GROUP_REPORTS = new Set(["all", "any", "none"]);

/**
 * Task args as weak models write them: a missing name is derived from the query or the tool, merge
 * strategies are read case- and separator-insensitively (`human-gated`, `Human Gated`), `group_report` in
 * any case. Anything else is left for the task schema to check.
 */
export function loosenTaskArgs(opcode: "task.subagent" | "task.tool", args: Json, rewrites: Rewrites): Json {
  let out = args;
  const name = args.name;
  if (typeof name !== "string" || name.trim().length === 0) {
    const derived = deriveTaskName(opcode, args);
    if (derived !== undefined) {
      out = { ...out, name: derived };
      rewrite(rewrites, "task_name_derived", `the background task had no name: "${derived}" was derived`);
    }
  }
  for (const key of ["merge_strategy", "group_merge_strategy"] as const) {
    const value = args[key];
    if (typeof value !== "string") continue;
    const canonical = MERGE_STRATEGIES[value.toUpperCase().replace(/[^A-Z]/g, "")];
    if (canonical !== undefined && canonical !== value) {
      out = { ...out, [key]: canonical };
      rewrite(rewrites, "merge_strategy_spelling", `${key} "${value}" was read as ${canonical}`);
    }
  }
  const report = args.group_report;
  if (typeof report === "string" && report !== report.trim().toLowerCase()) {
    const lower = report.trim().toLowerCase();
    if (GROUP_REPORTS.has(lower)) {
      out = { ...out, group_report: lower };
      rewrite(rewrites, "group_report_spelling", `group_report "${report}" was read as ${lower}`);
    }
  }
  return out;
}

const TASK_NAME_CHARS = 60;

function deriveTaskName(opcode: "task.subagent" | "task.tool", args: Json): string | undefined {
  if (opcode === "task.tool") {
    return typeof args.tool === "string" && args.tool.trim().length > 0
      ? `${args.tool.trim()} job`
      : undefined;
  }
  if (typeof args.query !== "string") return undefined;
  const line = args.query.trim().split("\n")[0]?.replace(/\s+/g, " ").trim() ?? "";
  if (line.length === 0) return undefined;
  if (line.length <= TASK_NAME_CHARS) return line;
  const cut = line.slice(0, TASK_NAME_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${space > 20 ? cut.slice(0, space) : cut}…`;
}
