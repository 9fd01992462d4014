import type { PlannerOptions, RunEventData } from "@waddle/protocol";
import type { FinalResponseArgs } from "@waddle/protocol";
import type { Catalog, CatalogTool } from "../catalog/catalog.js";
import type { ParallelBranchPlan, ParallelJoinPlan } from "../tools/parallel-plan.js";
import type { ResolvedHints } from "../catalog/resolve-hints.js";
import type { SalvageNote } from "./salvage-rules.js";

export type RepairKind = RunEventData<"repair_attempt">["kind"];
export interface ConstraintData {
  constraint: RunEventData<"constraint_violation">["constraint"];
  enforced: RunEventData<"constraint_violation">["enforced"];
  node?: string;
}

/** An action that passed every check, ready to dispatch. */
export type CheckedAction =
  | {
      kind: "final";
      args: FinalResponseArgs;
      /** The answer was inferred by the planner (prose, a fragment): the payload says so. */
      salvaged?: SalvageNote;
      /** Fields that did not validate (`confidence: "high"`), kept for the payload's `extra`. */
      invalid?: Record<string, unknown>;
    }
  | { kind: "tool"; tool: CatalogTool; args: Record<string, unknown> }
  | {
      kind: "parallel";
      branches: ParallelBranchPlan[];
      join?: ParallelJoinPlan;
      limit: number;
      requested: number;
      groupId?: string;
    }
  | { kind: "task"; opcode: "task.subagent" | "task.tool" };

/** Why an action was refused, and how to ask the LLM for a better one. */
export interface Rejection {
  code: string;
  message: string;
  /** The call purpose of the re-ask. */
  purpose: "repair" | "arg_fill" | "correction";
  /** For `repair_attempt` events (hint rejections have none: they emit `constraint_violation`). */
  repairKind?: RepairKind;
  constraint?: ConstraintData;
  node?: string;
  /** Counted against `maxConsecutiveArgFailures`. */
  argFailure?: boolean;
  /** Arg-fill: the fields to ask for, and the args so far. */
  argFill?: { node: string; missing: string[]; args: Record<string, unknown> };
  /** Fields whose value was a placeholder (`<auto>`, `unknown`, …): taken as missing, never run. */
  placeholders?: string[];
  /** A soft hint: its correction keys (one corrective iteration each). */
  softKeys?: readonly string[];
  /** What to do anyway once repairs are exhausted (final answers are never thrown away). */
  fallback?: CheckedAction;
}

export type CheckResult =
  | {
      ok: true;
      checked: CheckedAction;
      /** What the check recovered without a re-ask (optional args holding placeholders dropped, …). */
      notes?: SalvageNote[];
    }
  | { ok: false; rejection: Rejection };

export interface CheckContext {
  catalog: Catalog;
  hints: ResolvedHints;
  options: PlannerOptions;
  /** Tools called so far in this run (any outcome). */
  visited: ReadonlySet<string>;
  /** Soft-hint corrections already spent. */
  corrections: readonly string[];
  /** Tool calls left under `hopBudget` (Infinity without one). */
  hopsLeft: number;
  /** Set for actions that did not come from the LLM: no soft-hint corrections. */
  skipSoftHints?: boolean;
}
