import type { ToolFailure } from "@waddle/protocol";
import { createConcurrencyLimiter } from "../util/concurrency-limiter.js";
import { truncateText } from "../util/create-preview.js";
import { buildJoinArgs } from "./join-args.js";
import type { PlannerViewBranch, PlannerViewStep } from "../run/planner-view.js";
import { formatIssues } from "../util/format-issues.js";
import { createFailure } from "../run/run-state.js";
import type { ParallelBranchPlan, ParallelJoinPlan, ParallelPlan } from "./parallel-plan.js";
import { executeToolCall } from "./tool-executor.js";
import type { ToolRuntime } from "./tool-runtime.js";
import { isToolPauseSignal } from "./tool-pause-signal.js";

export type JoinRecord = NonNullable<PlannerViewStep["join"]>;

/** A join's outcome, as `parallel_end` and the parallel observation name it. */
export type JoinStatus = "ok" | "skipped" | "error" | "none";

/** `error` when the join tool ran into a failure (its args did not validate, or it failed). */
export function getJoinStatus(join: JoinRecord | undefined): JoinStatus {
  if (join === undefined) return "none";
  if (join.skipped !== undefined) return "skipped";
  return join.failure !== undefined ? "error" : "ok";
}

export interface ParallelOutcome {
  branches: PlannerViewBranch[];
  join?: JoinRecord;
  successCount: number;
  failureCount: number;
  /** Tool calls executed (branches and join): counted against the hop budget. */
  hops: number;
  /** What goes back to the LLM: every branch result, and the join's. */
  observation: Record<string, unknown>;
}

/**
 * Runs the branches of a `parallel` action concurrently under `limit`, then the join (docs/parallel-joins.md): skipped
 * with `branch_failures` when any branch failed, recorded (not fatal) when its args fail validation or it
 * throws. Branch results are kept in plan order whatever order they finish in.
 */
export async function executeParallel(runtime: ToolRuntime, plan: ParallelPlan): Promise<ParallelOutcome> {
  const started = runtime.clock();
  emitStart(runtime, plan);
  const limiter = createConcurrencyLimiter(plan.limit);
  const branches = await Promise.all(
    plan.branches.map((branch, index) => limiter.run(() => runBranch(runtime, plan, branch, index))),
  );
  let hops = branches.length;
  const failureCount = branches.filter((branch) => branch.failure !== undefined).length;
  const successCount = branches.length - failureCount;
  let join: JoinRecord | undefined;
  if (plan.join !== undefined) {
    const result = await runJoin(runtime, plan, plan.join, branches);
    join = result.record;
    if (result.ran) hops += 1;
  }
  emitEnd(runtime, plan, {
    successCount,
    failureCount,
    join,
    durationMs: Math.max(0, runtime.clock() - started),
  });
  const observation: Record<string, unknown> = {
    branches,
    success_count: successCount,
    failure_count: failureCount,
  };
  // The status first, so that the model reads at once whether the join ran, failed or was skipped.
  if (join !== undefined) observation.join = { status: getJoinStatus(join), ...join };
  const outcome: ParallelOutcome = { branches, successCount, failureCount, hops, observation };
  if (join !== undefined) outcome.join = join;
  return outcome;
}

async function runBranch(
  runtime: ToolRuntime,
  plan: ParallelPlan,
  branch: ParallelBranchPlan,
  index: number,
): Promise<PlannerViewBranch> {
  const record: PlannerViewBranch = { node: branch.tool.name, args: branch.args };
  try {
    const result = await executeToolCall(runtime, {
      tool: branch.tool,
      args: branch.args,
      step: plan.step,
      callId: `${plan.parallelId}:${index}`,
      parallelId: plan.parallelId,
      branch: index,
    });
    if (result.ok) record.observation = result.observation;
    else record.failure = result.failure;
  } catch (error) {
    record.failure = branchError(branch, error);
  }
  return record;
}

/** A branch cannot pause the run (the other branches are already running): its pause becomes a failure. */
function branchError(branch: ParallelBranchPlan, error: unknown): ToolFailure {
  const paused = isToolPauseSignal(error);
  return createFailure({
    node: branch.tool.name,
    args: branch.args,
    errorCode: paused ? "pause_in_parallel" : "tool_error",
    message: paused
      ? `${branch.tool.name} asked to pause, which a parallel branch cannot do.`
      : error instanceof Error
        ? error.message
        : "The branch failed.",
    suggestion: paused
      ? `Call ${branch.tool.name} on its own, not inside parallel.`
      : "Try again or another tool.",
  });
}

async function runJoin(
  runtime: ToolRuntime,
  plan: ParallelPlan,
  join: ParallelJoinPlan,
  branches: readonly PlannerViewBranch[],
): Promise<{ record: JoinRecord; ran: boolean }> {
  if ("unusable" in join) return { record: { node: join.node, skipped: join.unusable }, ran: false };
  const node = join.tool.name;
  if (runtime.cancellation.aborted) return { record: { node, skipped: "cancelled" }, ran: false };
  if (branches.some((branch) => branch.failure !== undefined)) {
    return { record: { node, skipped: "branch_failures" }, ran: false };
  }
  const injected = buildJoinArgs({
    args: join.args,
    inject: join.inject,
    branches,
    argsSchema: join.tool.argsSchema,
  });
  if (injected.unknownSources.length > 0) {
    return { record: { node, skipped: `invalid_inject: ${injected.unknownSources.join(", ")}` }, ran: false };
  }
  const parsed = join.tool.args.safeParse(injected.args);
  if (!parsed.success) {
    const failure = createFailure({
      node,
      args: injected.args,
      errorCode: "invalid_join_args",
      message: `The join ${node} did not run: its args do not validate (${formatIssues(parsed.error.issues)}).`,
      suggestion: `Map ${node}'s args to injection sources whose values its args schema takes ($results is an array, $expect a count), or supply its required args.`,
    });
    return { record: { node, failure }, ran: false };
  }
  try {
    const result = await executeToolCall(runtime, {
      tool: join.tool,
      args: parsed.data as Record<string, unknown>,
      step: plan.step,
      callId: `${plan.parallelId}:join`,
      parallelId: plan.parallelId,
      join: true,
    });
    return {
      record: result.ok ? { node, observation: result.observation } : { node, failure: result.failure },
      ran: true,
    };
  } catch (error) {
    return {
      record: { node, failure: branchError({ tool: join.tool, args: injected.args }, error) },
      ran: true,
    };
  }
}

function emitStart(runtime: ToolRuntime, plan: ParallelPlan): void {
  const data: {
    parallelId: string;
    steps: { node: string; args: unknown }[];
    maxParallel: number;
    join?: { node: string };
    groupId?: string;
  } = {
    parallelId: plan.parallelId,
    steps: plan.branches.map((branch) => ({
      node: branch.tool.name,
      args: runtime.events.preview(branch.args),
    })),
    maxParallel: plan.limit,
  };
  if (plan.join !== undefined)
    data.join = { node: "unusable" in plan.join ? plan.join.node : plan.join.tool.name };
  if (plan.groupId !== undefined) data.groupId = plan.groupId;
  runtime.events.emit("parallel_start", data, plan.step);
}

function emitEnd(
  runtime: ToolRuntime,
  plan: ParallelPlan,
  input: { successCount: number; failureCount: number; join: JoinRecord | undefined; durationMs: number },
): void {
  const { join } = input;
  const status = getJoinStatus(join);
  const joinData: { status: JoinStatus; node?: string; reason?: string; message?: string } = { status };
  if (join !== undefined) joinData.node = join.node;
  if (join?.skipped !== undefined) joinData.reason = join.skipped;
  else if (join?.failure !== undefined) {
    joinData.reason = join.failure.error_code;
    joinData.message = truncateText(join.failure.message, 500);
  }
  runtime.events.emit(
    "parallel_end",
    {
      parallelId: plan.parallelId,
      successCount: input.successCount,
      failureCount: input.failureCount,
      join: joinData,
      durationMs: input.durationMs,
    },
    plan.step,
  );
}
