import {
  getDefaultJoinInject,
  getUnsuppliedJoinArgs,
  isInjectSource,
  isJoinInjectFit,
  type AgentSpec,
  type GroupJoin,
  type JsonSchema,
  type ParallelGroup,
  type ToolSpec,
} from "@waddle/protocol";

/** The argument "Add a results argument" gives a join tool that has none to take the branches' results. */
export const RESULTS_ARG = "results";
export const RESULTS_ARG_SCHEMA = {
  type: "array",
  items: { type: "object" },
  description: "the branches' results, in order",
} as const;

/**
 * The join a group starts with when its join is turned on: the non-member tool that best takes the
 * branches' results (every required argument supplied, then at least one injection, then the first), and
 * an injection that fits its args schema (empty when nothing fits; the inspector says so).
 */
export function getDefaultJoin(spec: AgentSpec, group: ParallelGroup): GroupJoin {
  const candidates = spec.tools.filter((tool) => !group.members.includes(tool.name));
  let best: { join: GroupJoin; score: number } | undefined;
  for (const tool of candidates) {
    const inject = getDefaultJoinInject(tool.argsSchema);
    const injected = Object.keys(inject).length > 0;
    const complete = getUnsuppliedJoinArgs({ argsSchema: tool.argsSchema, args: {}, inject }).length === 0;
    const score = (injected ? 1 : 0) + (injected && complete ? 1 : 0);
    if (best === undefined || score > best.score)
      best = { join: { tool: tool.name, args: {}, inject }, score };
    if (score === 2) break;
  }
  return best?.join ?? { tool: "", args: {}, inject: {} };
}

/**
 * The join after its tool changes to `tool`: the injections the new tool takes are kept, and when none
 * is left, the new tool's own default injection is used. Fixed args stay as they are.
 */
export function getRetargetedJoin(spec: AgentSpec, options: { join: GroupJoin; tool: string }): GroupJoin {
  const argsSchema = findTool(spec, options.tool)?.argsSchema;
  if (argsSchema === undefined) return { ...options.join, tool: options.tool };
  const kept = Object.fromEntries(
    Object.entries(options.join.inject).filter(
      ([arg, source]) => isInjectSource(source) && isJoinInjectFit({ argsSchema, arg, source }),
    ),
  );
  const inject = Object.keys(kept).length > 0 ? kept : getDefaultJoinInject(argsSchema);
  return { ...options.join, tool: options.tool, inject };
}

/** True when the join tool has no argument that can take `$results` (the inspector offers to add one). */
export function isMissingResultsArg(tool: ToolSpec): boolean {
  return !Object.values(getDefaultJoinInject(tool.argsSchema)).includes("$results");
}

/** The join tool's args schema with a `results` array argument added (a free name if `results` is taken). */
export function getArgsSchemaWithResults(argsSchema: JsonSchema): { argsSchema: JsonSchema; arg: string } {
  const properties =
    typeof argsSchema.properties === "object" && argsSchema.properties !== null
      ? (argsSchema.properties as Record<string, unknown>)
      : {};
  let arg = RESULTS_ARG;
  for (let n = 2; arg in properties; n += 1) arg = `${RESULTS_ARG}_${n}`;
  return {
    argsSchema: {
      ...argsSchema,
      type: "object",
      properties: { ...properties, [arg]: { ...RESULTS_ARG_SCHEMA } },
    },
    arg,
  };
}

function findTool(spec: AgentSpec, name: string): ToolSpec | undefined {
  return spec.tools.find((tool) => tool.name === name);
}
