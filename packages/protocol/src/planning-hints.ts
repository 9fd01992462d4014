import { z } from "zod";

export const BudgetHints = z.strictObject({
  max_parallel: z.int().min(1).max(256).optional(),
  max_cost_usd: z.number().nonnegative().optional(),
});
export type BudgetHints = z.infer<typeof BudgetHints>;

/**
 * PenguiFlow's `planning_hints`, keys verbatim, so that a PenguiFlow dict pastes in unchanged.
 * Edges and groups of the spec add to these at run time.
 */
export const PlanningHints = z.strictObject({
  ordering_hints: z.array(z.string()).max(500).default([]),
  parallel_groups: z.array(z.array(z.string()).max(64)).max(100).default([]),
  sequential_only: z.array(z.string()).max(500).default([]),
  disallow_nodes: z.array(z.string()).max(500).default([]),
  prefer_nodes: z.array(z.string()).max(500).default([]),
  budget_hints: BudgetHints.default({}),
});
export type PlanningHints = z.infer<typeof PlanningHints>;
export type PlanningHintsInput = z.input<typeof PlanningHints>;

/**
 * What an import accepts as PenguiFlow hints: the dict itself, possibly wrapped as `{planning_hints}`, and
 * the loose top-level `max_parallel` / `max_cost_usd` some PenguiFlow examples use.
 */
export const PenguiFlowHintsInput = z.looseObject({
  ordering_hints: z.array(z.string()).optional(),
  parallel_groups: z.array(z.array(z.string())).optional(),
  sequential_only: z.array(z.string()).optional(),
  disallow_nodes: z.array(z.string()).optional(),
  prefer_nodes: z.array(z.string()).optional(),
  budget_hints: z
    .looseObject({ max_parallel: z.number().optional(), max_cost_usd: z.number().optional() })
    .optional(),
  max_parallel: z.number().optional(),
  max_cost_usd: z.number().optional(),
});
export type PenguiFlowHintsInput = z.infer<typeof PenguiFlowHintsInput>;

const HINT_KEYS = ["ordering_hints", "parallel_groups", "sequential_only", "disallow_nodes", "prefer_nodes"];

/** True when a value looks like a PenguiFlow `planning_hints` dict rather than an AgentSpec. */
export function isPlanningHintsLike(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if ("planning_hints" in record) return true;
  if ("tools" in record || "version" in record) return false;
  return [...HINT_KEYS, "budget_hints"].some((key) => key in record);
}

/**
 * Collapses a PenguiFlow hints dict (wrapped or not, loose budget keys or not) into `PlanningHints`. A
 * top-level `max_parallel` wins over `budget_hints.max_parallel`, as in PenguiFlow (the planner reads the
 * top-level key first); for `max_cost_usd` the `budget_hints` value still wins.
 */
export function normalizePlanningHints(input: PenguiFlowHintsInput): PlanningHints {
  const budget = input.budget_hints ?? {};
  const maxParallel = input.max_parallel ?? budget.max_parallel;
  const maxCost = budget.max_cost_usd ?? input.max_cost_usd;
  return PlanningHints.parse({
    ordering_hints: input.ordering_hints ?? [],
    parallel_groups: input.parallel_groups ?? [],
    sequential_only: input.sequential_only ?? [],
    disallow_nodes: input.disallow_nodes ?? [],
    prefer_nodes: input.prefer_nodes ?? [],
    budget_hints: {
      ...(maxParallel === undefined ? {} : { max_parallel: maxParallel }),
      ...(maxCost === undefined ? {} : { max_cost_usd: maxCost }),
    },
  });
}
