import { renderTemplate, type MockImpl } from "@waddle/protocol";
import type { z } from "zod";
import { abortableSleep, type Sleep } from "../util/abortable-sleep.js";
import { PlannerError } from "../errors/planner-error.js";
import type { ToolRunner } from "./tool.js";

export interface MockToolRunnerOptions {
  /** The tool's name, for failure messages. */
  toolName: string;
  /** Source of randomness for `failRate`; inject a seeded one for repeatable runs. */
  random?: () => number;
  sleep?: Sleep;
}

/** Call counters are kept for this many recent runs; older runs start counting again. */
const MAX_TRACKED_RUNS = 256;

/**
 * Runs a spec tool of kind `mock` inside the planner: waits `latencyMs` (cancelled by the call's signal),
 * fails the first `failFirst` calls of each run and then at `failRate` with `failMessage`, and otherwise
 * renders `output` with `renderTemplate` over `{args, query, last, steps, call}`.
 */
export function createMockToolRunner(
  impl: z.infer<typeof MockImpl>,
  options: MockToolRunnerOptions,
): ToolRunner {
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? abortableSleep;
  const callsByRun = new Map<string, number>();
  return async (args, context) => {
    const call = nextCall(callsByRun, context.runId);
    if (impl.latencyMs !== undefined && impl.latencyMs > 0) {
      await sleep(impl.latencyMs, context.signal);
      context.signal.throwIfAborted();
    }
    const failFirst = impl.failFirst ?? 0;
    if (call <= failFirst || (impl.failRate !== undefined && impl.failRate > 0 && random() < impl.failRate)) {
      throw new PlannerError(
        "tool_failed",
        impl.failMessage ?? `${options.toolName} failed (mock fault on call ${call}).`,
        {
          details: { mock: true, call },
        },
      );
    }
    return renderTemplate(impl.output, {
      args,
      query: context.query,
      last: context.observations.last,
      steps: context.observations.byTool,
      call,
    });
  };
}

function nextCall(callsByRun: Map<string, number>, runId: string): number {
  const call = (callsByRun.get(runId) ?? 0) + 1;
  callsByRun.delete(runId);
  callsByRun.set(runId, call);
  if (callsByRun.size > MAX_TRACKED_RUNS) {
    const oldest = callsByRun.keys().next().value;
    if (oldest !== undefined) callsByRun.delete(oldest);
  }
  return call;
}
