import { z } from "zod";

const JsonObject = z.record(z.string(), z.unknown());
const Failure = z.looseObject({
  node: z.string().default(""),
  error_code: z.string().default("error"),
  message: z.string().default(""),
});

const Branch = z.looseObject({
  node: z.string(),
  args: JsonObject.default({}),
  observation: z.unknown().optional(),
  failure: Failure.optional(),
});

const Step = z.looseObject({
  next_node: z.string(),
  args: JsonObject.default({}),
  source: z.string().default("llm"),
  observation: z.unknown().optional(),
  failure: Failure.optional(),
  branches: z.array(Branch).optional(),
  join: z
    .looseObject({
      node: z.string(),
      observation: z.unknown().optional(),
      failure: Failure.optional(),
      skipped: z.string().optional(),
    })
    .optional(),
  /** Set by the planner on an action it refused before running (unknown tool, args never valid). */
  refused: z.looseObject({ code: z.string(), message: z.string() }).optional(),
});

const Tool = z.looseObject({
  name: z.string(),
  desc: z.string().default(""),
  sideEffects: z.string().default("pure"),
  tags: z.array(z.string()).default([]),
  argsSchema: JsonObject.default({}),
  outSchema: JsonObject.default({}),
  requiresApproval: z.boolean().default(false),
});

const Group = z.looseObject({
  id: z.string(),
  name: z.string().default(""),
  members: z.array(z.string()).default([]),
  maxParallel: z.number().optional(),
  join: z
    .looseObject({
      tool: z.string(),
      args: JsonObject.default({}),
      inject: z.record(z.string(), z.string()).default({}),
    })
    .optional(),
});

/**
 * The part of `PlannerView` the offline model reads, validated at the boundary (the view arrives as
 * `unknown` through `LlmCompleteOptions`), with defaults for what a caller may leave out.
 */
export const OfflineView = z.looseObject({
  query: z.string(),
  tools: z.array(Tool),
  hints: z
    .looseObject({
      ordering_hints: z.array(z.string()).default([]),
      parallel_groups: z.array(z.array(z.string())).default([]),
      sequential_only: z.array(z.string()).default([]),
      disallow_nodes: z.array(z.string()).default([]),
      prefer_nodes: z.array(z.string()).default([]),
    })
    .default({
      ordering_hints: [],
      parallel_groups: [],
      sequential_only: [],
      disallow_nodes: [],
      prefer_nodes: [],
    }),
  edges: z.array(z.looseObject({ kind: z.string(), source: z.string(), target: z.string() })).default([]),
  groups: z.array(Group).default([]),
  steps: z.array(Step).default([]),
  lastError: z.looseObject({ code: z.string(), message: z.string() }).optional(),
  todos: z
    .looseObject({
      enabled: z.boolean().default(false),
      items: z.array(z.looseObject({ id: z.string(), content: z.string(), status: z.string() })).default([]),
    })
    .default({ enabled: false, items: [] }),
  iteration: z.number().default(0),
  maxIters: z.number().default(8),
  tasksEnabled: z.boolean().default(false),
  context: JsonObject.optional(),
  answerSchema: JsonObject.optional(),
});
export type OfflineView = z.infer<typeof OfflineView>;
export type OfflineTool = OfflineView["tools"][number];
export type OfflineStep = OfflineView["steps"][number];
export type OfflineFailure = z.infer<typeof Failure>;
export type OfflineGroup = OfflineView["groups"][number];
