import { TERMINAL_RUN_STATUSES, type RunEvent, type RunRecord } from "@waddle/protocol";
import type { RunEventHub } from "../runs/run-event-hub.js";
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
 * Follows one run until it ends or pauses, and resolves with its record then: "read the stored events,
 * then follow live", for `/v1`, `/mcp` and the CLI's in-process runs. Events are delivered from the store
 * first and live from the hub after, in `seq` order with no gap and no duplicate (the hub
 * publishes an event only once the store has it, so listening first and reading second misses nothing).
 */
export async function followRun(options: FollowRunOptions): Promise<RunRecord> {
  const { hub, store, runId, onEvent } = options;
  let delivered = options.afterSeq ?? 0;
  let reading = true;
  const held: RunEvent[] = [];
  const deliver = (event: RunEvent): void => {
    if (event.seq <= delivered) return;
    delivered = event.seq;
    onEvent?.(event);
  };
  // Reads what the store has after the last delivered event: the backlog, and any gap the hub left.
  const catchUp = async (): Promise<void> => {
    for (const event of await store.listEvents(runId, { afterSeq: delivered })) deliver(event);
  };
  let wake: () => void = () => undefined;
  const stopEvents = hub.onRunEvent(runId, (event) => {
    if (reading || event.seq !== delivered + 1) held.push(event);
    else deliver(event);
  });
  const stopStatus = hub.onStatus((message) => {
    if (message.runId === runId) wake();
  });
  try {
    for (;;) {
      const changed = new Promise<void>((resolve) => (wake = resolve));
      reading = true;
      await catchUp();
      for (const event of held.splice(0).sort((a, b) => a.seq - b.seq)) deliver(event);
      reading = false;
      const run = await store.getRun(runId);
      if (!run) throw new Error(`Run "${runId}" no longer exists.`);
      if (isRunSettled(run)) {
        if ((run.lastSeq ?? 0) > delivered) await catchUp();
        return run;
      }
      await changed;
    }
  } finally {
    stopEvents();
    stopStatus();
  }
}
