import type { RunEvent, RunRecord } from "@waddle/protocol";
import type { RunEventHub } from "../runs/run-event-hub.js";
import type { RunCommands } from "../runs/run-service.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { followRun } from "../runs/follow-run.js";

/** What the MCP and OpenAI-compatible endpoints need to run a saved agent as any other run. */
export interface AgentRunner {
  runs: RunCommands;
  hub: RunEventHub;
  store: WaddleStore;
}

export interface RunAgentOptions {
  agentId: string;
  query: string;
  /** The planner's `contextMeta`: what the LLM sees beside the query (earlier chat messages). */
  contextMeta?: Record<string, unknown>;
  /** Aborting cancels the run (a client that went away or cancelled its call). */
  signal?: AbortSignal;
  /** Called once the run is queued, before any event. */
  onStarted?: (runId: string) => void;
  onEvent?: (event: RunEvent) => void;
}

/**
 * Starts a run of the agent's latest version through the run service (so it is stored, queued, shown on
 * the canvas and listed like any other) and follows it until it ends or pauses. Throws what `startRun`
 * throws (unknown agent, refused LLM endpoint) before anything runs. A signal that aborts cancels the run;
 * the record then says `cancelled` once the cancel is recorded.
 */
export async function runAgent(runner: AgentRunner, options: RunAgentOptions): Promise<RunRecord> {
  options.signal?.throwIfAborted();
  const { runId } = await runner.runs.startRun(
    { agentId: options.agentId, query: options.query },
    options.contextMeta ? { contextMeta: options.contextMeta } : {},
  );
  options.onStarted?.(runId);
  const cancel = () => {
    // A run that has just ended cannot be cancelled any more: nothing to do then.
    runner.runs.cancelRun(runId).catch(() => undefined);
  };
  if (options.signal?.aborted) cancel();
  options.signal?.addEventListener("abort", cancel, { once: true });
  try {
    return await followRun({
      hub: runner.hub,
      store: runner.store,
      runId,
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    });
  } finally {
    options.signal?.removeEventListener("abort", cancel);
  }
}
