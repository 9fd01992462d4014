import {
  PlanningHints,
  type Edge,
  type GroupJoin,
  type ParallelGroup,
  type PlanningHintsInput,
} from "@waddle/protocol";
import type { Catalog } from "./catalog.js";

/** A set of tools that may run together: from `parallel_groups` or from a spec group (with its join). */
export interface ResolvedGroup {
  id?: string;
  name?: string;
  members: readonly string[];
  maxParallel?: number;
  join?: GroupJoin;
}

/** Planning hints merged with the spec's edges and groups, indexed for checks on every action. */
export interface ResolvedHints {
  /** The hints as given (what `PlannerView.hints` shows). */
  hints: PlanningHints;
  disallowed: ReadonlySet<string>;
  sequentialOnly: ReadonlySet<string>;
  preferred: readonly string[];
  /** `ordering_hints` as given. */
  ordering: readonly string[];
  /** tool → tools that `order` edges put before it (any one of them suffices). */
  orderSources: ReadonlyMap<string, readonly string[]>;
  groups: readonly ResolvedGroup[];
  maxParallel?: number;
  maxCostUsd?: number;
}

export interface ResolveHintsInput {
  hints?: PlanningHintsInput | PlanningHints;
  edges?: readonly Edge[];
  groups?: readonly ParallelGroup[];
}

/** Merges hints, `order` edges and parallel groups (docs/hints-enforcement.md; edges and groups are the spec's visual additions). */
export function resolveHints(input: ResolveHintsInput): ResolvedHints {
  const hints = PlanningHints.parse(input.hints ?? {});
  const orderSources = new Map<string, string[]>();
  for (const edge of input.edges ?? []) {
    if (edge.kind !== "order") continue;
    const sources = orderSources.get(edge.target) ?? [];
    if (!sources.includes(edge.source)) sources.push(edge.source);
    orderSources.set(edge.target, sources);
  }
  const groups: ResolvedGroup[] = hints.parallel_groups.map((members) => ({ members }));
  for (const group of input.groups ?? []) {
    const resolved: ResolvedGroup = { id: group.id, name: group.name, members: group.members };
    if (group.maxParallel !== undefined) resolved.maxParallel = group.maxParallel;
    if (group.join !== undefined) resolved.join = group.join;
    groups.push(resolved);
  }
  const resolved: ResolvedHints = {
    hints,
    disallowed: new Set(hints.disallow_nodes),
    sequentialOnly: new Set(hints.sequential_only),
    preferred: hints.prefer_nodes,
    ordering: hints.ordering_hints,
    orderSources,
    groups,
  };
  if (hints.budget_hints.max_parallel !== undefined) resolved.maxParallel = hints.budget_hints.max_parallel;
  if (hints.budget_hints.max_cost_usd !== undefined) resolved.maxCostUsd = hints.budget_hints.max_cost_usd;
  return resolved;
}

/**
 * Tools that the hints want before `tool` and that have not been called yet: every earlier entry of
 * `ordering_hints`, and at least one source of its `order` edges. Tools that are disallowed or not in the
 * catalog are never required.
 */
export function getOrderingGaps(input: {
  hints: ResolvedHints;
  tool: string;
  visited: ReadonlySet<string>;
  catalog: Catalog;
}): string[] {
  const { hints, tool, visited, catalog } = input;
  if (hints.ordering.length === 0 && hints.orderSources.size === 0) return [];
  const usable = (name: string): boolean => catalog.has(name) && !hints.disallowed.has(name);
  const gaps: string[] = [];
  const position = hints.ordering.indexOf(tool);
  for (let index = 0; index < position; index += 1) {
    const before = hints.ordering[index] as string;
    if (usable(before) && !visited.has(before) && !gaps.includes(before)) gaps.push(before);
  }
  const sources = (hints.orderSources.get(tool) ?? []).filter(usable);
  if (sources.length > 0 && !sources.some((source) => visited.has(source))) {
    for (const source of sources) if (!gaps.includes(source)) gaps.push(source);
  }
  return gaps;
}

/** The group whose members include every branch node, if any (first match). */
export function findGroupFor(hints: ResolvedHints, nodes: readonly string[]): ResolvedGroup | undefined {
  return hints.groups.find((group) => nodes.every((node) => group.members.includes(node)));
}

export interface HintConflict {
  kind: "all_disallowed" | "ordering_disallowed" | "join_disallowed" | "sequential_in_group";
  nodes: string[];
  message: string;
}

/**
 * Hints that make progress impossible, found before the first LLM call: they pause the run with
 * `constraints_conflict` so that a person relaxes them.
 */
export function findHintConflicts(hints: ResolvedHints, catalog: Catalog): HintConflict[] {
  const conflicts: HintConflict[] = [];
  if (catalog.size > 0 && catalog.names.every((name) => hints.disallowed.has(name))) {
    conflicts.push({
      kind: "all_disallowed",
      nodes: [...catalog.names],
      message: "Every tool of this agent is in disallow_nodes: nothing can be called.",
    });
  }
  const orderedButDisallowed = hints.ordering.filter(
    (name) => hints.disallowed.has(name) && catalog.has(name),
  );
  if (orderedButDisallowed.length > 0) {
    conflicts.push({
      kind: "ordering_disallowed",
      nodes: orderedButDisallowed,
      message: `ordering_hints requires ${orderedButDisallowed.join(", ")}, which disallow_nodes forbids.`,
    });
  }
  for (const group of hints.groups) {
    if (group.join !== undefined && hints.disallowed.has(group.join.tool)) {
      conflicts.push({
        kind: "join_disallowed",
        nodes: [group.join.tool],
        message: `The join of group "${group.name ?? group.id ?? "?"}" is ${group.join.tool}, which disallow_nodes forbids.`,
      });
    }
    const sequential = group.members.filter((member) => hints.sequentialOnly.has(member));
    if (sequential.length > 0 && group.members.length > 1) {
      conflicts.push({
        kind: "sequential_in_group",
        nodes: sequential,
        message: `${sequential.join(", ")} ${sequential.length === 1 ? "is" : "are"} sequential_only but listed in a parallel group.`,
      });
    }
  }
  return conflicts;
}
