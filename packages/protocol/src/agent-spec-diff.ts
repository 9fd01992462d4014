import { z } from "zod";
import type { AgentSpec } from "./agent-spec.js";

/** One field that differs: its dotted path, and its value on each side (absent: undefined, sent as null). */
export const FieldChange = z.object({ path: z.string(), from: z.unknown(), to: z.unknown() });
export type FieldChange = z.infer<typeof FieldChange>;

/** `GET /api/agents/:id/diff?from=&to=`: what changes from one saved version to another (layout aside). */
export const AgentSpecDiff = z.object({
  tools: z.object({
    added: z.array(z.string()),
    removed: z.array(z.string()),
    changed: z.array(z.object({ name: z.string(), changes: z.array(FieldChange) })),
  }),
  edges: z.object({ added: z.array(z.unknown()), removed: z.array(z.unknown()) }),
  groups: z.object({ added: z.array(z.unknown()), removed: z.array(z.unknown()) }),
  hints: z.array(FieldChange),
  planner: z.array(FieldChange),
  /** `llm`, `summarizerLlm`, `routerLlm`, `candidateLlms`. */
  llm: z.array(FieldChange),
  /** `name`, `description`, `sampleQueries`. */
  other: z.array(FieldChange),
});
export type AgentSpecDiff = z.infer<typeof AgentSpecDiff>;

export const AgentDiffResponse = z.object({
  agentId: z.string(),
  from: z.object({ version: z.int().positive(), channel: z.string().optional() }),
  to: z.object({ version: z.int().positive(), channel: z.string().optional() }),
  diff: AgentSpecDiff,
  /** True when nothing but the layout differs. */
  same: z.boolean(),
});
export type AgentDiffResponse = z.infer<typeof AgentDiffResponse>;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Field-by-field changes of two JSON values: objects are walked key by key, anything else compared whole. */
export function getFieldChanges(from: unknown, to: unknown, path = ""): FieldChange[] {
  if (isPlainObject(from) && isPlainObject(to)) {
    const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
    return keys.flatMap((key) => getFieldChanges(from[key], to[key], path ? `${path}.${key}` : key));
  }
  if (JSON.stringify(from) === JSON.stringify(to)) return [];
  return [{ path, from: from ?? null, to: to ?? null }];
}

function getListChanges(from: readonly unknown[], to: readonly unknown[]) {
  const fromKeys = new Set(from.map((item) => JSON.stringify(item)));
  const toKeys = new Set(to.map((item) => JSON.stringify(item)));
  return {
    added: to.filter((item) => !fromKeys.has(JSON.stringify(item))),
    removed: from.filter((item) => !toKeys.has(JSON.stringify(item))),
  };
}

/** The structural diff of two specs: tools by name (field by field, schemas included), edges, groups, the rest. */
export function getAgentSpecDiff(from: AgentSpec, to: AgentSpec): AgentSpecDiff {
  const fromTools = new Map(from.tools.map((tool) => [tool.name, tool]));
  const toTools = new Map(to.tools.map((tool) => [tool.name, tool]));
  const pick = (spec: AgentSpec, keys: readonly (keyof AgentSpec)[]) =>
    Object.fromEntries(keys.map((key) => [key, spec[key]]));
  const llmKeys = ["llm", "summarizerLlm", "routerLlm", "candidateLlms"] as const;
  const otherKeys = ["name", "description", "sampleQueries"] as const;
  return {
    tools: {
      added: [...toTools.keys()].filter((name) => !fromTools.has(name)),
      removed: [...fromTools.keys()].filter((name) => !toTools.has(name)),
      changed: [...toTools.entries()].flatMap(([name, tool]) => {
        const before = fromTools.get(name);
        const changes = before ? getFieldChanges(before, tool) : [];
        return changes.length > 0 ? [{ name, changes }] : [];
      }),
    },
    edges: getListChanges(from.edges, to.edges),
    groups: getListChanges(from.groups, to.groups),
    hints: getFieldChanges(from.hints, to.hints),
    planner: getFieldChanges(from.planner, to.planner),
    llm: getFieldChanges(pick(from, llmKeys), pick(to, llmKeys)),
    other: getFieldChanges(pick(from, otherKeys), pick(to, otherKeys)),
  };
}

/** True when the diff holds no change. */
export function isEmptyAgentSpecDiff(diff: AgentSpecDiff): boolean {
  const { tools, edges, groups } = diff;
  return (
    tools.added.length + tools.removed.length + tools.changed.length === 0 &&
    edges.added.length + edges.removed.length + groups.added.length + groups.removed.length === 0 &&
    diff.hints.length + diff.planner.length + diff.llm.length + diff.other.length === 0
  );
}
