import { TERMINAL_RUN_STATUSES, type RunRecord } from "@waddle/protocol";
import type { RunEventHub } from "../runs/run-event-hub.js";
import type { WaddleStore } from "../store/waddle-store.js";

/** How often the run is read again while no status message arrives (a safety net, not the path). */
const POLL_MS = 1_000;

/**
 * Resolves with the run once it has ended or paused (status messages, with a slow poll behind them).
 * Made before the run starts, so that no status message is missed; `stop` once done with it.
 */
export function waitForRunEnd(options: { hub: RunEventHub; store: WaddleStore; runId: string }): {
  promise: Promise<RunRecord>;
  stop: () => void;
} {
  const { hub, store, runId } = options;
  let stop = () => undefined as void;
  const promise = new Promise<RunRecord>((resolve, reject) => {
    const check = () => {
      store
        .getRun(runId)
        .then((run) => {
          if (run && (TERMINAL_RUN_STATUSES.has(run.status) || run.status === "paused")) {
            stop();
            resolve(run);
          }
        })
        .catch((error: unknown) => {
          stop();
          reject(error instanceof Error ? error : new Error(String(error)));
        });
    };
    const unsubscribe = hub.onStatus((message) => {
      if (
        message.runId === runId &&
        (TERMINAL_RUN_STATUSES.has(message.status) || message.status === "paused")
      )
        check();
    });
    const timer = setInterval(check, POLL_MS);
    stop = () => {
      unsubscribe();
      clearInterval(timer);
    };
  });
  return { promise, stop: () => stop() };
}
