import type { MergeStrategy } from "@waddle/protocol";
import { TaskError } from "../errors/task-error.js";
import type { PendingMerge, TaskResultEntry } from "../run/pending-merge.js";

/** Results waiting for the planner, in arrival order. */
export class MergeQueue {
  private readonly merges = new Map<string, PendingMerge>();

  constructor(private readonly clock: { now: () => number; createId: () => string }) {}

  add(input: {
    kind: "task" | "group";
    strategy: MergeStrategy;
    name: string;
    groupId?: string;
    tasks: TaskResultEntry[];
  }): PendingMerge {
    const merge: PendingMerge = {
      mergeId: this.clock.createId(),
      kind: input.kind,
      strategy: input.strategy,
      requiresApproval: input.strategy === "HUMAN_GATED",
      name: input.name,
      ...(input.groupId !== undefined ? { groupId: input.groupId } : {}),
      tasks: input.tasks,
      createdAt: this.clock.now(),
    };
    this.merges.set(merge.mergeId, merge);
    return merge;
  }

  list(): PendingMerge[] {
    return [...this.merges.values()].map((merge) => structuredClone(merge));
  }

  apply(
    mergeId: string,
    decision: "approve" | "reject" | undefined,
  ): { merge: PendingMerge; applied: boolean } {
    const merge = this.merges.get(mergeId);
    if (merge === undefined) {
      throw new TaskError(
        "unknown_merge",
        `No pending merge has id "${mergeId}": read getPendingMerges() first.`,
      );
    }
    if (merge.requiresApproval && decision === undefined) {
      throw new TaskError(
        "merge_requires_decision",
        `Merge "${mergeId}" is HUMAN_GATED: pass "approve" or "reject" once a person has decided.`,
        { mergeId },
      );
    }
    this.merges.delete(mergeId);
    return { merge, applied: decision !== "reject" };
  }
}
