import type { PlannerOptions, ToolSpec } from "@waddle/protocol";
import { buildCatalog } from "../catalog/catalog.js";
import type { ImplResolver, ToolDefinition } from "../catalog/tool.js";
import { RunEventEmitter } from "../run/run-event-emitter.js";
import { createRunState } from "../run/run-state.js";
import { abortableSleep, type Sleep } from "../util/abortable-sleep.js";
import { Cancellation } from "../util/cancellation.js";
import { executeToolCall } from "./tool-executor.js";
import { isToolPauseSignal } from "./tool-pause-signal.js";
import type { ToolRuntime } from "./tool-runtime.js";

export interface TestToolCallOptions {
  /** The tool, as its agent spec declares it. */
  tool: ToolSpec;
  args: unknown;
  /** The agent's retry and timeout defaults (`spec.planner`). */
  options: Pick<PlannerOptions, "toolRetry" | "toolTimeoutMs">;
  moduleTools?: ReadonlyMap<string, ToolDefinition>;
  resolveImpl?: ImplResolver;
  /** What `{{query}}` and `ctx.query` read (default: empty). */
  query?: string;
  toolContext?: Readonly<Record<string, unknown>>;
  signal?: AbortSignal;
  clock?: () => number;
  random?: () => number;
  sleep?: Sleep;
}

/** One call's outcome: the validated result, or a failure with the code the run would have seen. */
export type TestToolCallResult =
  | { ok: true; result: unknown; attempts: number; durationMs: number }
  | {
      ok: false;
      error: { code: string; message: string; issues?: { path: string; message: string }[] };
      attempts: number;
      durationMs: number;
    };

/**
 * Calls one tool of a spec as a run would, outside any run: its args validated against its args schema,
 * then the real executor (the tool's retry policy and timeout, the out schema check). No model, no
 * trajectory and no events: what the designer's "Run tool" needs.
 */
export async function testToolCall(input: TestToolCallOptions): Promise<TestToolCallResult> {
  const clock = input.clock ?? Date.now;
  const catalog = buildCatalog({
    specTools: [input.tool],
    ...(input.moduleTools ? { moduleTools: input.moduleTools } : {}),
    ...(input.resolveImpl ? { resolveImpl: input.resolveImpl } : {}),
    ...(input.random ? { random: input.random } : {}),
    ...(input.sleep ? { sleep: input.sleep } : {}),
  });
  const tool = catalog.get(input.tool.name)!;
  const parsed = tool.args.safeParse(input.args ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join("."),
      message: issue.message,
    }));
    return {
      ok: false,
      error: {
        code: "invalid_args",
        message: `The args do not fit ${tool.name}'s args schema: ${issues.map((issue) => `${issue.path || "(root)"}: ${issue.message}`).join("; ")}.`,
        issues,
      },
      attempts: 0,
      durationMs: 0,
    };
  }
  const state = createRunState({ runId: "tool-test", query: input.query ?? "", startedAt: clock() });
  const secrets = new Set<string>();
  const runtime: ToolRuntime = {
    runId: state.runId,
    query: state.query,
    toolContext: input.toolContext ?? {},
    cancellation: new Cancellation(input.signal),
    events: new RunEventEmitter({ state, sink: undefined, clock, secrets, previewChars: 0 }),
    clock,
    random: input.random ?? Math.random,
    sleep: input.sleep ?? abortableSleep,
    options: input.options,
    secrets,
    observations: { last: undefined, byTool: {} },
    reportUsage: () => undefined,
  };
  const started = clock();
  try {
    const outcome = await executeToolCall(runtime, {
      tool,
      args: parsed.data as Record<string, unknown>,
      step: 0,
      callId: "tool-test",
      startedAt: started,
    });
    return outcome.ok
      ? { ok: true, result: outcome.observation, attempts: outcome.attempts, durationMs: outcome.durationMs }
      : {
          ok: false,
          error: { code: outcome.failure.error_code, message: outcome.failure.message },
          attempts: outcome.attempts,
          durationMs: outcome.durationMs,
        };
  } catch (error) {
    if (!isToolPauseSignal(error)) throw error;
    return {
      ok: false,
      error: {
        code: "pause_requested",
        message: `${tool.name} asked to pause the run; a test call cannot wait.`,
      },
      attempts: 1,
      durationMs: Math.max(0, clock() - started),
    };
  }
}
