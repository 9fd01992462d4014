import type { AgentSpec, ToolSpec } from "@waddle/protocol";

/** An auto-seq edge the schemas allow but the spec does not have yet. */
export interface SuggestedEdge {
  source: string;
  target: string;
  /** The target's required args that the source's output provides. */
  matched: string[];
}

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function getProperties(schema: Schema): Record<string, Schema> {
  const properties = schema.properties;
  if (!isSchema(properties)) return {};
  return Object.fromEntries(
    Object.entries(properties).filter((entry): entry is [string, Schema] => isSchema(entry[1])),
  );
}

function getRequired(schema: Schema): string[] {
  return Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === "string")
    : [];
}

function getTypes(schema: Schema): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type))
    return schema.type.filter((type): type is string => typeof type === "string");
  if (isSchema(schema.properties)) return ["object"];
  return undefined;
}

/**
 * True when every value the `produced` schema allows is accepted by the `accepted` schema, as far as
 * types, enums, array items and nested required properties tell. Unknown (untyped) on either side counts
 * as compatible, since the runtime validates the real payload anyway.
 */
export function isSchemaCompatible(produced: Schema, accepted: Schema): boolean {
  const acceptedTypes = getTypes(accepted);
  const producedTypes = getTypes(produced);
  if (acceptedTypes && producedTypes) {
    const fits = (type: string) =>
      acceptedTypes.includes(type) || (type === "integer" && acceptedTypes.includes("number"));
    if (!producedTypes.every(fits)) return false;
  }
  if (Array.isArray(accepted.enum)) {
    const allowed = accepted.enum;
    if (!Array.isArray(produced.enum) || !produced.enum.every((value) => allowed.includes(value)))
      return false;
  }
  if (
    isSchema(accepted.items) &&
    isSchema(produced.items) &&
    !isSchemaCompatible(produced.items, accepted.items)
  ) {
    return false;
  }
  if (
    getTypes(accepted)?.includes("object") &&
    (isSchema(produced.properties) || getRequired(accepted).length > 0)
  ) {
    return getObjectMatch(produced, accepted) !== null;
  }
  return true;
}

/**
 * The required properties of `args` that `out` provides with compatible types, or null when `out` cannot
 * satisfy `args` (a required property missing or of another type, or an extra property `args` forbids).
 */
export function getObjectMatch(out: Schema, args: Schema): string[] | null {
  const outProperties = getProperties(out);
  const argsProperties = getProperties(args);
  const matched: string[] = [];
  for (const name of getRequired(args)) {
    const produced = outProperties[name];
    const accepted = argsProperties[name] ?? {};
    if (!produced || !isSchemaCompatible(produced, accepted)) return null;
    matched.push(name);
  }
  for (const [name, produced] of Object.entries(outProperties)) {
    const accepted = argsProperties[name];
    if (!accepted) {
      if (args.additionalProperties === false) return null;
      continue;
    }
    if (!matched.includes(name) && !isSchemaCompatible(produced, accepted)) return null;
  }
  return matched;
}

const matchCache = new WeakMap<object, WeakMap<object, string[] | null>>();

/**
 * `getObjectMatch`, remembered per pair of schema objects: an edit replaces only the schemas it touches,
 * so on a big agent each edit re-checks only the pairs involving those.
 */
function getCachedMatch(out: Schema, args: Schema): string[] | null {
  let byArgs = matchCache.get(out);
  if (!byArgs) {
    byArgs = new WeakMap();
    matchCache.set(out, byArgs);
  }
  let match = byArgs.get(args);
  if (match === undefined) {
    match = getObjectMatch(out, args);
    byArgs.set(args, match);
  }
  return match;
}

/**
 * Answers "does a chain of auto-seq edges lead from `from` to `to`?", one search per source, remembered.
 */
function createChainCheck(spec: AgentSpec): (from: string, to: string) => boolean {
  const next = new Map<string, string[]>();
  for (const edge of spec.edges) {
    if (edge.kind !== "auto_seq") continue;
    next.set(edge.source, [...(next.get(edge.source) ?? []), edge.target]);
  }
  const reachable = new Map<string, Set<string>>();
  return (from, to) => {
    let seen = reachable.get(from);
    if (!seen) {
      seen = new Set();
      const stack = [...(next.get(from) ?? [])];
      for (let name = stack.pop(); name !== undefined; name = stack.pop()) {
        if (seen.has(name)) continue;
        seen.add(name);
        stack.push(...(next.get(name) ?? []));
      }
      reachable.set(from, seen);
    }
    return seen.has(to);
  };
}

/**
 * Auto-seq edges the schemas suggest: the source's out schema satisfies the target's args schema (every
 * required arg present with a compatible type). Skipped: targets without required args (any output would
 * fit them), and pairs that auto-seq edges already connect in either direction, directly or along a chain
 * (a shortcut past the chain's own steps, or a loop back into it, is what a pipeline of one shared state
 * type would otherwise suggest between every pair). `involving` limits the pairs to those touching these
 * tools (what a big canvas shows).
 * The rules: `designer/docs/suggested-edges.md`.
 */
export function suggestAutoSeqEdges(
  spec: AgentSpec,
  options: { involving?: ReadonlySet<string> } = {},
): SuggestedEdge[] {
  const { involving } = options;
  const isChained = createChainCheck(spec);
  const suggestions: SuggestedEdge[] = [];
  const consider = (source: ToolSpec, target: ToolSpec) => {
    if (source.name === target.name || getRequired(target.argsSchema).length === 0) return;
    if (isChained(source.name, target.name) || isChained(target.name, source.name)) return;
    const matched = getCachedMatch(source.outSchema, target.argsSchema);
    if (matched && matched.length > 0)
      suggestions.push({ source: source.name, target: target.name, matched });
  };
  if (involving) {
    // only pairs touching these tools: O(n·k) instead of O(n²)
    const picked = spec.tools.filter((tool) => involving.has(tool.name));
    for (const tool of picked) {
      for (const other of spec.tools) {
        consider(tool, other);
        if (!involving.has(other.name)) consider(other, tool);
      }
    }
    return suggestions;
  }
  for (const target of spec.tools) for (const source of spec.tools) consider(source, target);
  return suggestions;
}
