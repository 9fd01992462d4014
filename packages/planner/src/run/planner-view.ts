import type {
  ActionSource,
  Edge,
  JsonSchema,
  ParallelGroup,
  PlanningHints,
  SideEffect,
  ToolFailure,
} from "@waddle/protocol";

export interface PlannerViewTool {
  name: string;
  desc: string;
  sideEffects: SideEffect;
  tags: readonly string[];
  argsSchema: JsonSchema;
  outSchema: JsonSchema;
  autoSeq: boolean;
  requiresApproval: boolean;
}

export interface PlannerViewBranch {
  node: string;
  args: Record<string, unknown>;
  observation?: unknown;
  failure?: ToolFailure;
}

/** One step of the trajectory as an in-process model sees it. */
export interface PlannerViewStep {
  next_node: string;
  args: Record<string, unknown>;
  source: ActionSource;
  observation?: unknown;
  failure?: ToolFailure;
  /** For `parallel` steps: each branch, and the join when one ran. */
  branches?: readonly PlannerViewBranch[];
  join?: { node: string; observation?: unknown; failure?: ToolFailure; skipped?: string };
}

export interface PlannerViewTodo {
  id: string;
  content: string;
  status: "pending" | "in_progress" | "completed";
}

/**
 * The planner's structured view of a run, passed to `LlmClient.complete` as `plannerView`. In-process
 * models (the offline model) plan from it; remote clients ignore it and it never leaves the process.
 */
export interface PlannerView {
  query: string;
  tools: readonly PlannerViewTool[];
  hints: PlanningHints;
  edges: readonly Edge[];
  groups: readonly ParallelGroup[];
  steps: readonly PlannerViewStep[];
  /** Why the previous reply was refused, when this call is a repair or correction. */
  lastError?: { code: string; message: string };
  todos: { enabled: boolean; items: readonly PlannerViewTodo[] };
  tasksEnabled: boolean;
  /** The run's `contextMeta` (a session's turn: `{session: {turns, merged_results, …}}`). */
  context?: Readonly<Record<string, unknown>>;
  iteration: number;
  maxIters: number;
  /** The run's answer schema: `final_response`'s answer is an object valid against it. */
  answerSchema?: JsonSchema;
}
