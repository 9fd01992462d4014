import { TERMINAL_RUN_STATUSES, type RunEvent, type RunRecord } from "@waddle/protocol";
import type { RunEventHub } from "./run-event-hub.js";
import { RunEventFollower } from "./run-event-follower.js";
import type { WaddleStore } from "../store/waddle-store.js";

export interface FollowRunOptions {
  hub: RunEventHub;
  store: WaddleStore;
  runId: string;
  /** Deliver the events after this seq (default 0: the whole run). */
  afterSeq?: number;
  /** Every event of the run after `afterSeq`, in order, each once. */
  onEvent?: (event: RunEvent) => void;
}

/** True once a run has answered for now: it ended, or it waits at a pause. */
export function isRunSettled(run: RunRecord): boolean {
  return run.status === "paused" || TERMINAL_RUN_STATUSES.has(run.status);
}

/**
 * Follows one run until it ends or pauses, and resolves with its record then (`RunEventFollower` for its
 * events), for `/v1`, `/mcp` and the CLI's in-process runs. Events are delivered from the store
 * first and live from the hub after, in `seq` order with no gap and no duplicate (the hub
 * publishes an event only once the store has it, so listening first and reading second misses nothing).
 */
export async function followRun(options: FollowRunOptions): Promise<RunRecord> {
  const { hub, store, runId, onEvent } = options;
  const follower = new RunEventFollower({
    hub,
    store,
    runId,
    afterSeq: options.afterSeq ?? 0,
    onEvent: (event) => onEvent?.(event),
    inOrder: true,
  });
  let wake: () => void = () => undefined;
  const stopStatus = hub.onStatus((message) => {
    if (message.runId === runId) wake();
  });
  try {
    for (;;) {
      const changed = new Promise<void>((resolve) => (wake = resolve));
      // The backlog, and any gap the hub left.
      await follower.catchUp();
      const run = await store.getRun(runId);
      if (!run) throw new Error(`Run "${runId}" no longer exists.`);
      if (isRunSettled(run)) {
        if ((run.lastSeq ?? 0) > follower.lastSeq) await follower.catchUp();
        return run;
      }
      await changed;
    }
  } finally {
    follower.stop();
    stopStatus();
  }
}
