import type { Edge, JsonSchema, ToolSpec } from "./agent-spec.js";
import { getArgNames } from "./check-tool-templates.js";
import type { SpecCheckPath as Path, SpecCheckReport as Report } from "./spec-check.js";

/** Module and MCP tools get their schemas from code or from the MCP server: an empty one in the spec says nothing. */
function hasOutsideSchemas(tool: ToolSpec): boolean {
  return tool.impl.kind === "module" || tool.impl.kind === "mcp";
}

function getType(schema: unknown): string | undefined {
  if (schema === null || typeof schema !== "object") return undefined;
  const type = (schema as JsonSchema).type;
  return typeof type === "string" ? type : undefined;
}

/**
 * An auto-seq edge hands the source's observation to the target as its args (the payload must validate
 * against the target's args schema): a source without an out schema hands nothing known, and a required
 * argument of the target that the source's output does not hold (or holds with another type) is never filled.
 */
export function checkAutoSeqFit(options: {
  edge: Edge;
  source: ToolSpec;
  target: ToolSpec;
  at: Path;
  report: Report;
}): void {
  const { edge, source, target, at, report } = options;
  const remove = { action: "remove_edge" as const, label: "Remove the edge", edgeId: edge.id };
  const outNames = getArgNames(source.outSchema);
  if (outNames === undefined || outNames.size === 0) {
    if (hasOutsideSchemas(source)) return;
    report(
      "error",
      "auto_seq_without_out_schema",
      at,
      `${source.name} has no out schema, so the auto-seq edge to ${target.name} hands it nothing known: add output fields to ${source.name} or remove the edge.`,
      remove,
    );
    return;
  }
  const argNames = getArgNames(target.argsSchema);
  if (argNames === undefined || (argNames.size === 0 && hasOutsideSchemas(target))) return;
  const required = Array.isArray(target.argsSchema.required) ? target.argsSchema.required : [];
  const outProperties = source.outSchema.properties as Record<string, unknown>;
  const argProperties = (target.argsSchema.properties ?? {}) as Record<string, unknown>;
  const missing: string[] = [];
  for (const name of required) {
    if (typeof name !== "string") continue;
    if (!outNames.has(name)) {
      missing.push(`"${name}"`);
      continue;
    }
    const want = getType(argProperties[name]);
    const have = getType(outProperties[name]);
    if (
      want !== undefined &&
      have !== undefined &&
      want !== have &&
      !(want === "number" && have === "integer")
    ) {
      missing.push(`"${name}" (${target.name} wants ${want}, ${source.name} gives ${have})`);
    }
  }
  if (missing.length === 0) return;
  report(
    "error",
    "auto_seq_args_unfilled",
    at,
    `${source.name}'s output cannot fill the required ${missing.length === 1 ? "argument" : "arguments"} ${missing.join(", ")} of ${target.name}: the auto-seq step would never validate. Match the fields or remove the edge.`,
    remove,
  );
}
