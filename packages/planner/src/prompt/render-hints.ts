import type { Catalog } from "../catalog/catalog.js";
import type { ResolvedHints } from "../catalog/resolve-hints.js";

/**
 * The hints as a few short lines for the system prompt (docs/hints-enforcement.md: "respect …", "preferred order
 * …", "allowed parallel groups …; do not exceed max_parallel", "disallowed tools … (never call)").
 * Empty when there is nothing to say.
 */
export function renderHints(hints: ResolvedHints, catalog: Catalog, maxParallelCap: number): string[] {
  const lines: string[] = [];
  if (hints.disallowed.size > 0)
    lines.push(`Disallowed tools (never call): ${[...hints.disallowed].join(", ")}.`);
  if (hints.ordering.length > 0)
    lines.push(`Preferred order (if applicable): ${hints.ordering.join(" → ")}.`);
  const edgeLines: string[] = [];
  for (const [target, sources] of hints.orderSources) {
    edgeLines.push(`${sources.length === 1 ? sources[0] : `one of ${sources.join("/")}`} before ${target}`);
  }
  if (edgeLines.length > 0) lines.push(`Order: ${edgeLines.join("; ")}.`);
  for (const group of hints.groups) lines.push(renderGroup(group));
  if (hints.sequentialOnly.size > 0) {
    lines.push(`Sequential only (never inside parallel): ${[...hints.sequentialOnly].join(", ")}.`);
  }
  if (hints.preferred.length > 0)
    lines.push(`Prefer these tools when they fit: ${hints.preferred.join(", ")}.`);
  const maxParallel = Math.min(hints.maxParallel ?? maxParallelCap, maxParallelCap);
  if (hints.maxParallel !== undefined || hints.groups.length > 0) {
    lines.push(`At most ${maxParallel} tool calls run at once in a parallel plan.`);
  }
  if (hints.maxCostUsd !== undefined) lines.push(`Cost ceiling for the whole run: $${hints.maxCostUsd}.`);
  const scoped = catalog.tools.filter((tool) => tool.authScopes.length > 0);
  if (scoped.length > 0) {
    lines.push(
      `Tools needing auth scopes: ${scoped.map((tool) => `${tool.name} (${tool.authScopes.join(", ")})`).join("; ")}.`,
    );
  }
  return lines;
}

function renderGroup(group: ResolvedHints["groups"][number]): string {
  const label = group.name === undefined ? "Parallel group" : `Parallel group "${group.name}"`;
  const parts = [`${label}: ${group.members.join(", ")}`];
  if (group.join !== undefined) {
    const inject = Object.entries(group.join.inject)
      .map(([field, source]) => `${field}=${source}`)
      .join(", ");
    parts.push(`join with ${group.join.tool}${inject.length > 0 ? ` (inject ${inject})` : ""}`);
  }
  if (group.maxParallel !== undefined) parts.push(`at most ${group.maxParallel} at once`);
  return `${parts.join("; ")}.`;
}
