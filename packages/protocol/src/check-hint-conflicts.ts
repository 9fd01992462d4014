import type { AgentSpec } from "./agent-spec.js";
import type { SpecCheckPath as Path, SpecCheckReport as Report } from "./spec-check.js";

/**
 * Planning hints that contradict each other, as errors: each one either pauses every run on a
 * `constraints_conflict` before its first step (ordering or a join naming a disallowed tool, every tool
 * disallowed, a sequential-only tool in a parallel group) or silently drops one of the two hints (a tool
 * both preferred and disallowed). Each message says which list to change. Only tools of the agent count:
 * unknown names are reported once, as `unknown_tool`, by the reference checks.
 */
export function checkHintConflicts(
  spec: AgentSpec,
  options: { report: Report; groupIndex: (i: number) => number },
): void {
  const { report } = options;
  const { hints } = spec;
  const tools = new Set(spec.tools.map((tool) => tool.name));
  const disallowed = new Set(hints.disallow_nodes.filter((name) => tools.has(name)));
  const sequentialOnly = new Set(hints.sequential_only.filter((name) => tools.has(name)));

  hints.ordering_hints.forEach((name, i) => {
    if (!disallowed.has(name)) return;
    report(
      "error",
      "ordering_disallowed",
      ["hints", "ordering_hints", i],
      `ordering_hints requires ${name}, which disallow_nodes forbids: every run would pause on this conflict. Take ${name} out of ordering_hints or out of disallow_nodes.`,
    );
  });
  const preferred = new Set(hints.prefer_nodes);
  hints.disallow_nodes.forEach((name, i) => {
    if (!preferred.has(name) || !tools.has(name)) return;
    report(
      "error",
      "disallowed_and_preferred",
      ["hints", "disallow_nodes", i],
      `${name} is in both prefer_nodes and disallow_nodes: it can never be the preferred choice. Take it out of one of the two lists.`,
    );
  });
  if (spec.tools.length > 0 && spec.tools.every((tool) => disallowed.has(tool.name))) {
    report(
      "error",
      "all_tools_disallowed",
      ["hints", "disallow_nodes"],
      `Every tool of this agent is in disallow_nodes: nothing can be called, and every run would pause. Take at least one tool out of disallow_nodes.`,
    );
  }

  const checkMembers = (members: readonly string[], at: (m: number) => Path, group: string) =>
    members.forEach((member, m) => {
      if (!sequentialOnly.has(member)) return;
      report(
        "error",
        "sequential_only_in_parallel_group",
        at(m),
        `${member} is sequential_only, so it cannot run in ${group}: every run would pause on this conflict. Take ${member} out of the group or out of sequential_only.`,
      );
    });
  hints.parallel_groups.forEach((members, g) =>
    checkMembers(members, (m) => ["hints", "parallel_groups", g, m], "a parallel_groups hint"),
  );
  spec.groups.forEach((group, i) => {
    const at: Path = ["groups", options.groupIndex(i)];
    checkMembers(group.members, (m) => [...at, "members", m], `parallel group "${group.name}"`);
    const join = group.join?.tool;
    if (join === undefined || !disallowed.has(join)) return;
    report(
      "error",
      "join_disallowed",
      [...at, "join", "tool"],
      `The join of parallel group "${group.name}" is ${join}, which disallow_nodes forbids: every run would pause on this conflict. Pick another join tool, or take ${join} out of disallow_nodes.`,
    );
  });
}
