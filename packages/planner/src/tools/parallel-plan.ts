import type { CatalogTool } from "../catalog/catalog.js";

/** A checked `parallel` action as the executor runs it (built by the parallel checker). */
export interface ParallelBranchPlan {
  tool: CatalogTool;
  /** Validated args. */
  args: Record<string, unknown>;
}

/** A join that will run, or one that cannot (unknown or disallowed tool): then it is skipped, never fatal. */
export type ParallelJoinPlan =
  | { tool: CatalogTool; args: Record<string, unknown>; inject?: Record<string, string>; fromGroup?: string }
  | { node: string; unusable: string };

export interface ParallelPlan {
  parallelId: string;
  step: number;
  branches: readonly ParallelBranchPlan[];
  join?: ParallelJoinPlan;
  /** Concurrency actually allowed (hints, group and absolute cap applied). */
  limit: number;
  groupId?: string;
}
