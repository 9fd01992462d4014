// Parallel plans as weak models write them: step and join shapes, malformed steps dropped
// (docs/parallel-joins.md).
import { isRecord, rewrite, type Json, type Rewrites } from "./rewrites.js";

/** `parallel` (or `plan`, or a legacy top-level plan) args with its steps and join in the canonical shape. */
export function toParallel(args: Json, rewrites: Rewrites): Json {
  const out: Json = { ...args };
  if (Array.isArray(args.steps))
    out.steps = dropMalformedSteps(
      args.steps.map((step) => toStep(step, rewrites)),
      rewrites,
    );
  if (args.join === null || args.join === undefined) delete out.join;
  else {
    const join = toJoin(args.join, rewrites);
    if (join === undefined) delete out.join;
    else out.join = join;
  }
  return { next_node: "parallel", args: out };
}

/**
 * Steps that cannot be a call (no node, not an object) are dropped when at least one valid step remains,
 * and offered back in the observation; with none valid the plan is refused as it is (docs/parallel-joins.md).
 */
function dropMalformedSteps(steps: unknown[], rewrites: Rewrites): unknown[] {
  const isStep = (step: unknown) =>
    isRecord(step) && typeof step.node === "string" && step.node.trim().length > 0;
  const valid = steps.filter(isStep);
  if (valid.length === 0 || valid.length === steps.length) return steps;
  const dropped = steps.flatMap((step, index) => (isStep(step) ? [] : [{ index, step }]));
  const reasons = dropped.map(
    ({ index, step }) => `steps[${index}] (${isRecord(step) ? "no node" : "not an object"})`,
  );
  rewrite(
    rewrites,
    "parallel_step_dropped",
    `${reasons.join(", ")} ${dropped.length === 1 ? "was" : "were"} dropped; ${valid.length} valid step${valid.length === 1 ? " runs" : "s run"}`,
  );
  rewrites.droppedSteps = dropped.map(({ index, step }) => ({ index, step }));
  return valid;
}

/** A join: `{node, args, inject}`; one without a node is dropped (the model combines the results itself). */
function toJoin(join: unknown, rewrites: Rewrites): unknown {
  if (typeof join === "string" && join.trim().length > 0) {
    rewrite(rewrites, "join_shape");
    return { node: join.trim() };
  }
  if (!isRecord(join)) return join;
  const shaped = toStep(join, rewrites) as Json;
  if (typeof shaped.node !== "string" || shaped.node.trim().length === 0) {
    rewrite(rewrites, "join_dropped");
    return undefined;
  }
  const inject = shaped.inject;
  if (isRecord(inject) && Object.keys(inject).length === 1 && isRecord(inject.mapping)) {
    rewrite(rewrites, "inject_mapping");
    return { ...shaped, inject: inject.mapping };
  }
  return shaped;
}

/** `{node|tool|next_node|name, args|arguments}` → `{node, args, …}` for steps and joins. */
function toStep(step: unknown, rewrites: Rewrites): unknown {
  if (!isRecord(step)) return step;
  if (typeof step.node === "string" && (step.args === undefined || isRecord(step.args))) return step;
  const nodeKey = (["node", "tool", "next_node", "name"] as const).find(
    (key) => typeof step[key] === "string",
  );
  const argsKey = (["args", "arguments", "parameters"] as const).find((key) => isRecord(step[key]));
  if (nodeKey === undefined) return step;
  rewrite(rewrites, "step_shape");
  const out: Json = { node: step[nodeKey] };
  out.args = argsKey === undefined ? {} : step[argsKey];
  if (step.inject !== undefined) out.inject = step.inject;
  return out;
}
