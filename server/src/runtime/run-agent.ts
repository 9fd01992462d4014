import type { RunEvent } from "@waddle/protocol";
import type { PlannerOutcome } from "@waddle/planner";
import { createAgentRuntime, type AgentRuntimeOptions } from "./create-agent-runtime.js";

export interface RunAgentOptions extends AgentRuntimeOptions {
  query: string;
  /** Every event of the run, in order. */
  onEvent?: (event: RunEvent) => void;
  /** Secrets and opaque values for the tools; never shown to the model. */
  toolContext?: Record<string, unknown>;
  signal?: AbortSignal;
}

/** Runs an agent once to its finish or pause, then closes what it started (MCP servers). */
export async function runAgent(options: RunAgentOptions): Promise<PlannerOutcome> {
  const { query, onEvent, toolContext, signal, ...runtimeOptions } = options;
  const runtime = await createAgentRuntime(runtimeOptions);
  try {
    const { planner } = await runtime.createPlanner();
    return await planner.run(query, {
      ...(onEvent ? { onEvent } : {}),
      ...(toolContext ? { toolContext } : {}),
      ...(signal ? { signal } : {}),
    });
  } finally {
    await runtime.close();
  }
}
