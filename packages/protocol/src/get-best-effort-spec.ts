import type { z } from "zod";
import { AgentSpec, Edge, ParallelGroup, PlannerOptions, ToolSpec } from "./agent-spec.js";
import type { SourceIndices } from "./check-spec-references.js";
import { SIDE_EFFECTS, TOOL_NAME_PATTERN } from "./names.js";
import { PlanningHints } from "./planning-hints.js";
import { Guard } from "./guards.js";

/**
 * Reads as much of a broken spec as parses, so that cross references can still be checked. Tool names
 * that break the name pattern are kept as written (the name's own issue is reported once, at the tool):
 * an element whose only fault is such a name is read in full, so that it is checked like any other.
 */
export function getBestEffortSpec(input: unknown): { spec: AgentSpec; indices: SourceIndices } | undefined {
  if (!isRecord(input)) return undefined;
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const indices: Required<SourceIndices> = { tools: [], edges: [], groups: [] };
  const tools = list(input.tools).flatMap((tool, index): ToolSpec[] => {
    const parsed = parseWithNames(ToolSpec, tool, ["name"]);
    if (parsed !== undefined) {
      indices.tools.push(index);
      return [parsed];
    }
    if (!isRecord(tool) || typeof tool.name !== "string") return [];
    indices.tools.push(index);
    return [getFallbackTool(tool, tool.name)];
  });
  const edges = list(input.edges).flatMap((edge, index) => {
    const parsed = parseWithNames(Edge, edge, ["source", "target"]);
    if (parsed === undefined) return [];
    indices.edges.push(index);
    return [parsed];
  });
  const groups = list(input.groups).flatMap((group, index) => {
    const parsed = parseWithNames(ParallelGroup, group, ["members", "join.tool"]);
    if (parsed === undefined) return [];
    indices.groups.push(index);
    return [parsed];
  });
  const hints = PlanningHints.safeParse(input.hints ?? {});
  const planner = PlannerOptions.safeParse(input.planner ?? {});
  // Guards are checked only when every one parses: a dropped guard would shift the paths of the others.
  const guards = Guard.array().safeParse(input.guards ?? []);
  const base = AgentSpec.parse({ version: 1, id: "best-effort", name: "best effort" });
  const spec: AgentSpec = {
    ...base,
    tools,
    edges,
    groups,
    hints: hints.success ? hints.data : base.hints,
    planner: planner.success ? planner.data : base.planner,
    guards: guards.success ? guards.data : [],
  };
  return { spec, indices };
}

/** A tool that does not parse, read field by field: what it says where it can be read, defaults elsewhere. */
function getFallbackTool(record: Record<string, unknown>, name: string): ToolSpec {
  const fallback = ToolSpec.parse({ name: "placeholder", impl: { kind: "mock" } });
  const sideEffects = (SIDE_EFFECTS as readonly unknown[]).includes(record.sideEffects)
    ? (record.sideEffects as ToolSpec["sideEffects"])
    : "pure";
  return {
    ...fallback,
    name,
    desc: typeof record.desc === "string" ? record.desc : "",
    sideEffects,
    argsSchema: isRecord(record.argsSchema) ? record.argsSchema : fallback.argsSchema,
    outSchema: isRecord(record.outSchema) ? record.outSchema : fallback.outSchema,
    autoSeq: record.autoSeq === true,
    autoSeqExecute: record.autoSeqExecute === true,
  };
}

/**
 * Parses `value` with invalid tool names at `fields` (dotted paths; arrays of names included) swapped for
 * valid stand-ins, then puts the names back as written.
 */
function parseWithNames<T extends z.ZodType>(
  schema: T,
  value: unknown,
  fields: string[],
): z.infer<T> | undefined {
  const direct = schema.safeParse(value);
  if (direct.success) return direct.data;
  if (!isRecord(value)) return undefined;
  const standIns = new Map<string, string>();
  const swap = (name: unknown): unknown => {
    if (typeof name !== "string" || TOOL_NAME_PATTERN.test(name)) return name;
    const standIn = `__invalid_name_${standIns.size}`;
    standIns.set(standIn, name);
    return standIn;
  };
  const swapped = structuredClone(value);
  for (const field of fields)
    updateField(swapped, field.split("."), (name) => (Array.isArray(name) ? name.map(swap) : swap(name)));
  if (standIns.size === 0) return undefined;
  const parsed = schema.safeParse(swapped);
  if (!parsed.success) return undefined;
  const restore = (name: unknown): unknown =>
    typeof name === "string" ? (standIns.get(name) ?? name) : name;
  const data = parsed.data as Record<string, unknown>;
  for (const field of fields)
    updateField(data, field.split("."), (name) => (Array.isArray(name) ? name.map(restore) : restore(name)));
  return data as z.infer<T>;
}

function updateField(
  record: Record<string, unknown>,
  path: string[],
  update: (value: unknown) => unknown,
): void {
  const [head, ...rest] = path;
  if (head === undefined || !(head in record)) return;
  if (rest.length === 0) {
    record[head] = update(record[head]);
    return;
  }
  const child = record[head];
  if (isRecord(child)) updateField(child, rest, update);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
