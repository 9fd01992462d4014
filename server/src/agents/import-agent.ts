import {
  describeZodIssue,
  AgentSpec,
  formatJsonPath,
  isPlanningHintsLike,
  normalizePlanningHints,
  PenguiFlowHintsInput,
  TOOL_NAME_PATTERN,
  ToolSpec,
  validateAgentSpec,
  type Edge,
  type ImportResponse,
  type ParallelGroup,
  type PlanningHints,
} from "@waddle/protocol";
import { z } from "zod";
import { ApiError } from "../shared/api-error.js";

const PLACEHOLDER_DESC =
  "Placeholder created by import from planning hints: describe it and give it a real implementation.";

/**
 * Imports a full spec, or a PenguiFlow `planning_hints` dict (bare, `{planning_hints}`, or `{base,
 * planning_hints}` to merge into a spec). Hints become the spec's hints, order edges along
 * `ordering_hints` and groups for `parallel_groups`; tools the hints name but the spec lacks become mock
 * placeholders. Returns the spec (or null when it is invalid) and every issue.
 */
export function importAgent(body: unknown): ImportResponse {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ApiError(
      "validation_failed",
      "Import an agent spec object or a PenguiFlow planning_hints object.",
    );
  }
  if (!isPlanningHintsLike(body)) return toImportResponse(validateAgentSpec(body));
  const record = body as Record<string, unknown>;
  const wrapped = "planning_hints" in record;
  const hintsInput = wrapped ? record.planning_hints : record;
  const parsedHints = PenguiFlowHintsInput.safeParse(hintsInput);
  if (!parsedHints.success) throw toHintsError(parsedHints.error, wrapped);
  let hints: PlanningHints;
  try {
    hints = normalizePlanningHints(parsedHints.data);
  } catch (error) {
    // Ranges and list lengths: max_parallel 1–256, max_cost_usd ≥ 0, at most 500 names a list, …
    if (error instanceof z.ZodError) throw toHintsError(error, wrapped);
    throw error;
  }
  let base: AgentSpec;
  if (record.base !== undefined) {
    const validated = validateAgentSpec(record.base);
    if (!validated.ok)
      return {
        spec: null,
        issues: validated.issues.map((issue) => ({ ...issue, path: issue.path.replace(/^\$/, "$.base") })),
      };
    base = validated.spec;
  } else {
    base = AgentSpec.parse({
      version: 1,
      id: "imported-agent",
      name: "Imported agent",
      description: "Imported from PenguiFlow planning hints.",
    });
  }
  return toImportResponse(validateAgentSpec(mergeHints(base, hints)));
}

/** A 400 naming the first hint to fix, with every issue at its JSON path in the request body. */
function toHintsError(error: z.ZodError, wrapped: boolean): ApiError {
  const issues = error.issues.map((issue) => {
    const path = formatJsonPath([...(wrapped ? ["planning_hints"] : []), ...(issue.path as PropertyKey[])]);
    return { path, message: describeZodIssue(issue) };
  });
  const first = issues[0];
  const where = first ? first.path.replace(/^\$\.?/, "") || "planning_hints" : "planning_hints";
  return new ApiError(
    "validation_failed",
    `Fix ${where} in the planning hints: ${first?.message.replace(/\.$/, "") ?? "it does not have the expected shape"}.`,
    { issues },
  );
}

function toImportResponse(result: ReturnType<typeof validateAgentSpec>): ImportResponse {
  return result.ok ? { spec: result.spec, issues: result.issues } : { spec: null, issues: result.issues };
}

/** The spec with the hints merged in: union of lists, budget values from the hints. */
export function mergeHints(base: AgentSpec, hints: PlanningHints): AgentSpec {
  const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];
  const merged: PlanningHints = {
    ordering_hints: hints.ordering_hints.length > 0 ? hints.ordering_hints : base.hints.ordering_hints,
    parallel_groups: [...base.hints.parallel_groups, ...hints.parallel_groups],
    sequential_only: union(base.hints.sequential_only, hints.sequential_only),
    disallow_nodes: union(base.hints.disallow_nodes, hints.disallow_nodes),
    prefer_nodes: union(base.hints.prefer_nodes, hints.prefer_nodes),
    budget_hints: { ...base.hints.budget_hints, ...hints.budget_hints },
  };
  const tools = [...base.tools];
  const known = new Set(tools.map((tool) => tool.name));
  const mentioned = [
    ...hints.ordering_hints,
    ...hints.parallel_groups.flat(),
    ...hints.sequential_only,
    ...hints.prefer_nodes,
    ...hints.disallow_nodes,
  ];
  for (const name of mentioned) {
    if (known.has(name) || !TOOL_NAME_PATTERN.test(name)) continue;
    known.add(name);
    tools.push(
      ToolSpec.parse({
        name,
        desc: PLACEHOLDER_DESC,
        sideEffects: hints.sequential_only.includes(name) ? "write" : "read",
        impl: { kind: "mock", output: { result: `${name} placeholder output` } },
      }),
    );
  }
  return {
    ...base,
    tools,
    edges: [...base.edges, ...getOrderEdges(base.edges, hints.ordering_hints, known)],
    groups: [...base.groups, ...getParallelGroups(base.groups, hints.parallel_groups, known)],
    hints: merged,
  };
}

function toSlug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "-")
      .replace(/^[-_]+/, "")
      .slice(0, 56) || "x"
  );
}

function uniqueId(wanted: string, taken: Set<string>): string {
  let id = wanted;
  for (let counter = 2; taken.has(id); counter += 1) id = `${wanted.slice(0, 60)}-${counter}`;
  taken.add(id);
  return id;
}

function getOrderEdges(
  existing: readonly Edge[],
  ordering: readonly string[],
  known: ReadonlySet<string>,
): Edge[] {
  const ids = new Set(existing.map((edge) => edge.id));
  const pairs = new Set(existing.map((edge) => `${edge.kind} ${edge.source} ${edge.target}`));
  const edges: Edge[] = [];
  for (let index = 1; index < ordering.length; index += 1) {
    const source = ordering[index - 1]!;
    const target = ordering[index]!;
    if (
      !known.has(source) ||
      !known.has(target) ||
      source === target ||
      pairs.has(`order ${source} ${target}`)
    )
      continue;
    pairs.add(`order ${source} ${target}`);
    edges.push({ id: uniqueId(toSlug(`order-${source}-${target}`), ids), kind: "order", source, target });
  }
  return edges;
}

function getParallelGroups(
  existing: readonly ParallelGroup[],
  groups: readonly string[][],
  known: ReadonlySet<string>,
): ParallelGroup[] {
  const ids = new Set(existing.map((group) => group.id));
  const memberSets = new Set(existing.map((group) => [...group.members].sort().join(" ")));
  const out: ParallelGroup[] = [];
  groups.forEach((members, index) => {
    const valid = [...new Set(members)].filter((name) => known.has(name));
    const key = [...valid].sort().join(" ");
    if (valid.length < 2 || memberSets.has(key)) return;
    memberSets.add(key);
    out.push({
      id: uniqueId(`parallel-${index + 1}`, ids),
      kind: "parallel",
      name: `Parallel group ${index + 1}`,
      members: valid,
    });
  });
  return out;
}
