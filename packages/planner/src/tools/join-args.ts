import { isInjectSource, type InjectSource, type JsonSchema } from "@waddle/protocol";
import type { PlannerViewBranch } from "../run/planner-view.js";

export interface JoinInjectionInput {
  /** The join's own args, from the LLM or the group. */
  args: Record<string, unknown>;
  /** join arg name → source; when absent, the deprecated implicit injection applies. */
  inject?: Record<string, string>;
  branches: readonly PlannerViewBranch[];
  /** The join tool's args JSON Schema: implicit injection fills only the fields it declares. */
  argsSchema: JsonSchema;
}

export interface JoinInjectionResult {
  args: Record<string, unknown>;
  /** Mappings that named no known source: left out, reported with the join. */
  unknownSources: string[];
  implicit: boolean;
}

/** Join arg names that implicit injection fills, by source (deprecated but still honoured, docs/parallel-joins.md). */
const IMPLICIT_FIELDS: ReadonlyArray<readonly [string, InjectSource]> = [
  ["results", "$results"],
  ["branches", "$branches"],
  ["failures", "$failures"],
  ["success_count", "$success_count"],
  ["failure_count", "$failure_count"],
  ["expect", "$expect"],
];

/** The value of one injection source over the finished branches (in plan order, not completion order). */
export function getInjectedValue(source: InjectSource, branches: readonly PlannerViewBranch[]): unknown {
  switch (source) {
    case "$results":
      return branches.filter((branch) => branch.failure === undefined).map((branch) => branch.observation);
    case "$branches":
      return branches.map((branch) => ({ ...branch }));
    case "$failures":
      return branches
        .filter((branch) => branch.failure !== undefined)
        .map((branch) => ({ node: branch.node, args: branch.args, error: branch.failure }));
    case "$success_count":
      return branches.filter((branch) => branch.failure === undefined).length;
    case "$failure_count":
      return branches.filter((branch) => branch.failure !== undefined).length;
    case "$expect":
      return branches.length;
  }
}

/**
 * The join's args with injected values: explicit `inject` mappings win over the join's own args; without
 * `inject`, fields the join tool declares under the conventional names (`results`, `expect`, …) are filled
 * when the LLM left them out.
 */
export function buildJoinArgs(input: JoinInjectionInput): JoinInjectionResult {
  const args: Record<string, unknown> = { ...input.args };
  const unknownSources: string[] = [];
  if (input.inject !== undefined) {
    for (const [field, source] of Object.entries(input.inject)) {
      if (isInjectSource(source)) args[field] = getInjectedValue(source, input.branches);
      else unknownSources.push(`${field}: ${source}`);
    }
    return { args, unknownSources, implicit: false };
  }
  const properties = input.argsSchema.properties;
  const declared =
    typeof properties === "object" && properties !== null ? (properties as Record<string, unknown>) : {};
  let implicit = false;
  for (const [field, source] of IMPLICIT_FIELDS) {
    if (field in declared && !(field in args)) {
      args[field] = getInjectedValue(source, input.branches);
      implicit = true;
    }
  }
  return { args, unknownSources, implicit };
}
