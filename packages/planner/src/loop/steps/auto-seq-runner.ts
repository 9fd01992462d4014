import type { RunEventData } from "@waddle/protocol";
import {
  detectTransition,
  type AutoSeqSkipReason,
  type AutoSeqStep,
  type TransitionDetection,
} from "../../auto-seq/auto-seq.js";
import { getAutoSeqEventData } from "../../auto-seq/auto-seq-events.js";
import { canAutoExecute } from "../../auto-seq/auto-seq-gate.js";
import type { RunContext } from "../run-context.js";
import type { TrajectoryStep } from "../../run/run-state.js";

/**
 * Auto-seq in the loop (docs/auto-seq.md), once per iteration while `autoSeq.enabled`: detects whether exactly one tool takes
 * the last structured observation, emits the one detection event, and — when the planner's
 * `autoSeq.execute` AND the tool's `autoSeqExecute` allow it and no gate objects (disallowed, approval) —
 * queues the action, which then goes through the same checks, gates and events as an LLM action.
 */
export function runAutoSeqDetection(run: Pick<RunContext, "config" | "state" | "events">): void {
  const { config, state } = run;
  const setup = config.autoSeq;
  if (setup === undefined) return;
  const last = findLastActionStep(state.steps, config.writeTodosTool?.name);
  const steps: AutoSeqStep[] = [];
  if (last !== undefined) {
    const step: AutoSeqStep = { next_node: last.next_node, observation: last.observation };
    if (last.failure !== undefined) step.failure = last.failure;
    const payloadType = setup.payloadTypes.get(last.next_node);
    if (payloadType !== undefined) step.payloadType = payloadType;
    steps.push(step);
  }
  const result = guardLoops(
    run,
    last,
    detectTransition({
      steps,
      tools: setup.tools,
      readOnlyOnly: config.options.autoSeq.readOnlyOnly,
      pendingActions: state.pendingActions.length,
      autoSeqEdges: config.edges,
      blocked: config.hints.disallowed,
      cache: setup.cache,
    }),
  );
  const event = getAutoSeqEventData(result, last?.next_node ?? null);
  run.events.emit(event.type, event.data as RunEventData<"auto_seq_skipped">);
  if (result.status !== "unique" || result.action === undefined) return;
  const tool = config.catalog.get(result.action.next_node);
  if (tool === undefined) return;
  const approval = config.approvalGate({
    tool,
    args: result.action.args,
    source: "auto_seq",
    options: config.options,
    approved: false,
  });
  const executable = canAutoExecute({
    plannerExecute: config.options.autoSeq.execute,
    tool,
    disallowed: config.hints.disallowed.has(tool.name),
    approvalRequired: approval.pause,
  });
  if (!executable) return;
  state.pendingActions.push({
    action: result.action,
    source: "auto_seq",
    reason: "auto_seq_detected_unique",
  });
  const fingerprint = result.fingerprint?.payload_fingerprint;
  if (fingerprint !== undefined) state.autoSeqLast = { tool: tool.name, fingerprint };
}

/**
 * Auto-seq cannot loop (docs/auto-seq.md): right after a queued action that did not come from detection
 * (a resumed call), detection is skipped once so that the model decides; and a tool that was just
 * auto-executed is never auto-executed again on a payload of the same fingerprint.
 */
function guardLoops(
  run: Pick<RunContext, "state">,
  last: TrajectoryStep | undefined,
  result: TransitionDetection,
): TransitionDetection {
  if (result.status === "skipped" || last === undefined) return result;
  const skip = (reason: AutoSeqSkipReason): TransitionDetection => {
    const skipped: TransitionDetection = { status: "skipped", reason, candidates: [] };
    if (result.fingerprint !== undefined) skipped.fingerprint = result.fingerprint;
    return skipped;
  };
  if (last.source !== "llm" && last.source !== "auto_seq") return skip("after_queued_action");
  const previous = run.state.autoSeqLast;
  if (
    result.status === "unique" &&
    last.source === "auto_seq" &&
    previous !== undefined &&
    previous.tool === result.candidates[0] &&
    previous.fingerprint === result.fingerprint?.payload_fingerprint
  ) {
    return skip("repeated_fingerprint");
  }
  return result;
}

/** After an auto-seq action ran: `auto_seq_executed`, and one LLM call saved. */
export function recordAutoSeqExecuted(
  run: Pick<RunContext, "config" | "state" | "events">,
  toolName: string,
): void {
  run.state.autoSeqSavedCalls += 1;
  const previous = findLastActionStep(run.state.steps.slice(0, -1), run.config.writeTodosTool?.name);
  run.events.emit("auto_seq_executed", {
    tool_name: toolName,
    prev_step_next_node: previous?.next_node ?? null,
  });
}

/**
 * The last step that produced a tool's output: planner notes (task results, a person's input) and plan
 * updates (`write_todos`, whose acknowledgement is no payload for a tool) are looked through.
 */
function findLastActionStep(
  steps: readonly TrajectoryStep[],
  planTool: string | undefined,
): TrajectoryStep | undefined {
  for (let index = steps.length - 1; index >= 0; index -= 1) {
    const step = steps[index]!;
    if (step.note !== true && step.next_node !== planTool) return step;
  }
  return undefined;
}
