import { RESERVED_TOOL_NAMES } from "@waddle/protocol";
import type { OfflineGroup, OfflineTool, OfflineView } from "./offline-view.js";
import { WRITE_TODOS_TOOL_NAME } from "../../run/todo-state.js";

/** One thing to do: a tool, or a parallel group of tools with its join. */
export type PlanUnit =
  | { kind: "tool"; id: string; tool: string }
  | {
      kind: "group";
      id: string;
      name: string;
      members: string[];
      join?: NonNullable<OfflineGroup["join"]>;
      /** Set for groups from the spec (`parallel_start` carries it); unset for hint groups. */
      groupId?: string;
    };

/** The agent's structure as the offline model walks it. */
export interface OfflineGraph {
  /** Units in the order to run them (a topological walk; ties broken by hints, then catalog order). */
  units: PlanUnit[];
  tools: ReadonlyMap<string, OfflineTool>;
  /** Tool → tools it may stand in for: a shared tag or the same required args, and no path between them. */
  alternatives: ReadonlyMap<string, readonly string[]>;
  /** Tool → every tool after it along edges and ordering hints (what a failure without stand-in cuts off). */
  descendants: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Builds the walk over the tools the model may call: no disallowed tools, no opcodes, no `write_todos`. */
export function getOfflineGraph(view: OfflineView): OfflineGraph {
  const disallowed = new Set(view.hints.disallow_nodes);
  const callable = view.tools.filter(
    (tool) =>
      !disallowed.has(tool.name) &&
      !RESERVED_TOOL_NAMES.has(tool.name) &&
      tool.name !== WRITE_TODOS_TOOL_NAME,
  );
  const tools = new Map(callable.map((tool) => [tool.name, tool]));
  const units = getUnits(view, tools);
  const unitOf = new Map<string, PlanUnit>();
  for (const unit of units) for (const tool of toolsOf(unit)) unitOf.set(tool, unit);
  const toolEdges = getToolEdges(view).filter(([source, target]) => tools.has(source) && tools.has(target));
  const successors = new Map<string, Set<string>>(units.map((unit) => [unit.id, new Set<string>()]));
  for (const [source, target] of toolEdges) {
    const from = unitOf.get(source);
    const to = unitOf.get(target);
    if (from !== undefined && to !== undefined && from !== to) successors.get(from.id)?.add(to.id);
  }
  const rank = getRank(view, callable);
  const unitRank = (unit: PlanUnit): number =>
    Math.min(...toolsOf(unit).map((tool) => rank.get(tool) ?? Infinity));
  return {
    units: walk(units, successors, unitRank),
    tools,
    ...getReach(callable, toolEdges),
  };
}

export function toolsOf(unit: PlanUnit): string[] {
  if (unit.kind === "tool") return [unit.tool];
  return unit.join === undefined ? unit.members : [...unit.members, unit.join.tool];
}

function getUnits(view: OfflineView, tools: ReadonlyMap<string, OfflineTool>): PlanUnit[] {
  const sequential = new Set(view.hints.sequential_only);
  const grouped = new Set<string>();
  const groups: PlanUnit[] = [];
  const candidates = [
    ...view.groups.map((group) => ({ ...group, groupId: group.id })),
    ...view.hints.parallel_groups.map((members, index) => ({
      id: `hint-${index}`,
      name: "",
      members,
      join: undefined,
    })),
  ];
  for (const group of candidates) {
    const members = group.members.filter(
      (tool) => tools.has(tool) && !sequential.has(tool) && !grouped.has(tool),
    );
    if (members.length === 0) continue;
    const join =
      group.join !== undefined && tools.has(group.join.tool) && !grouped.has(group.join.tool)
        ? group.join
        : undefined;
    for (const tool of members) grouped.add(tool);
    if (join !== undefined) grouped.add(join.tool);
    const unit: PlanUnit = { kind: "group", id: `group:${group.id}`, name: group.name || group.id, members };
    if (join !== undefined) unit.join = join;
    if ("groupId" in group) unit.groupId = group.groupId;
    groups.push(unit);
  }
  const singles: PlanUnit[] = [...tools.keys()]
    .filter((tool) => !grouped.has(tool))
    .map((tool) => ({ kind: "tool", id: `tool:${tool}`, tool }));
  return [...groups, ...singles];
}

/** Order edges, auto-seq edges and consecutive ordering hints, as (before, after) pairs. */
function getToolEdges(view: OfflineView): [string, string][] {
  const edges: [string, string][] = view.edges.map((edge) => [edge.source, edge.target]);
  const hints = view.hints.ordering_hints;
  for (let index = 1; index < hints.length; index += 1)
    edges.push([hints[index - 1] ?? "", hints[index] ?? ""]);
  return edges;
}

/** Lower runs first: position in ordering hints, then in prefer_nodes, then in the catalog. */
function getRank(view: OfflineView, tools: readonly OfflineTool[]): Map<string, number> {
  const size = tools.length + 1;
  const rank = new Map<string, number>();
  tools.forEach((tool, index) => {
    const hinted = view.hints.ordering_hints.indexOf(tool.name);
    const preferred = view.hints.prefer_nodes.indexOf(tool.name);
    const tier = hinted >= 0 ? hinted : preferred >= 0 ? size + preferred : 2 * size + index;
    rank.set(tool.name, tier);
  });
  return rank;
}

/** Kahn's algorithm, lowest rank first among the ready; a cycle is broken at its lowest-ranked unit. */
function walk(
  units: readonly PlanUnit[],
  successors: ReadonlyMap<string, ReadonlySet<string>>,
  rank: (unit: PlanUnit) => number,
): PlanUnit[] {
  const indegree = new Map(units.map((unit) => [unit.id, 0]));
  for (const targets of successors.values()) {
    for (const target of targets) indegree.set(target, (indegree.get(target) ?? 0) + 1);
  }
  const remaining = [...units].sort((left, right) => rank(left) - rank(right));
  const order: PlanUnit[] = [];
  while (remaining.length > 0) {
    const readyIndex = remaining.findIndex((unit) => indegree.get(unit.id) === 0);
    const [next] = remaining.splice(readyIndex >= 0 ? readyIndex : 0, 1);
    if (next === undefined) break;
    order.push(next);
    for (const target of successors.get(next.id) ?? []) indegree.set(target, (indegree.get(target) ?? 1) - 1);
  }
  return order;
}

function getReach(
  tools: readonly OfflineTool[],
  edges: readonly [string, string][],
): Pick<OfflineGraph, "alternatives" | "descendants"> {
  const next = new Map<string, string[]>(tools.map((tool) => [tool.name, []]));
  for (const [source, target] of edges) next.get(source)?.push(target);
  const descendants = new Map<string, Set<string>>();
  for (const tool of tools) {
    const seen = new Set<string>();
    const queue = [...(next.get(tool.name) ?? [])];
    for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
      if (seen.has(current)) continue;
      seen.add(current);
      queue.push(...(next.get(current) ?? []));
    }
    descendants.set(tool.name, seen);
  }
  const connected = (left: string, right: string): boolean =>
    descendants.get(left)?.has(right) === true || descendants.get(right)?.has(left) === true;
  const alternatives = new Map<string, string[]>();
  for (const tool of tools) {
    const others = tools.filter(
      (other) =>
        other.name !== tool.name &&
        (sharesTag(tool, other) || sameRequiredArgs(tool, other)) &&
        !connected(tool.name, other.name),
    );
    alternatives.set(
      tool.name,
      others.map((other) => other.name),
    );
  }
  return { alternatives, descendants };
}

function sharesTag(left: OfflineTool, right: OfflineTool): boolean {
  return left.tags.some((tag) => right.tags.includes(tag));
}

function sameRequiredArgs(left: OfflineTool, right: OfflineTool): boolean {
  const required = (tool: OfflineTool): string =>
    Array.isArray(tool.argsSchema.required)
      ? [...(tool.argsSchema.required as string[])].sort().join(",")
      : "";
  const key = required(left);
  return key !== "" && key === required(right);
}
