import type { SpecIssue } from "@waddle/protocol";

/** How many issues an element has, and the first message (the node badge's tooltip). */
export interface IssueSummary {
  errors: number;
  warnings: number;
  first: string;
}

/** Issues grouped by the element they concern (`issue.target`), for badges on nodes, edges and groups. */
export interface IssueIndex {
  tools: ReadonlyMap<string, IssueSummary>;
  edges: ReadonlyMap<string, IssueSummary>;
  groups: ReadonlyMap<string, IssueSummary>;
  errors: number;
  warnings: number;
}

export const EMPTY_ISSUE_INDEX: IssueIndex = {
  tools: new Map(),
  edges: new Map(),
  groups: new Map(),
  errors: 0,
  warnings: 0,
};

/** Groups issues by their target; issues about the agent, LLM, planner or hints count only in totals. */
export function getIssueIndex(issues: readonly SpecIssue[]): IssueIndex {
  const tools = new Map<string, IssueSummary>();
  const edges = new Map<string, IssueSummary>();
  const groups = new Map<string, IssueSummary>();
  let errors = 0;
  let warnings = 0;
  for (const issue of issues) {
    if (issue.severity === "error") errors += 1;
    else warnings += 1;
    const id = issue.target?.id;
    if (id === undefined) continue;
    const map =
      issue.target?.kind === "tool"
        ? tools
        : issue.target?.kind === "edge"
          ? edges
          : issue.target?.kind === "group"
            ? groups
            : null;
    if (!map) continue;
    const summary = map.get(id) ?? { errors: 0, warnings: 0, first: issue.message };
    map.set(id, {
      errors: summary.errors + (issue.severity === "error" ? 1 : 0),
      warnings: summary.warnings + (issue.severity === "warning" ? 1 : 0),
      // an error's message wins over a warning's as the one shown first
      first: summary.errors === 0 && issue.severity === "error" ? issue.message : summary.first,
    });
  }
  return { tools, edges, groups, errors, warnings };
}

/** True when two summaries say the same (so node data can be reused). */
export function isSameIssueSummary(a: IssueSummary | undefined, b: IssueSummary | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.errors === b.errors && a.warnings === b.warnings && a.first === b.first;
}
