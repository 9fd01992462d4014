import { TERMINAL_RUN_STATUSES, type RunEvent, type RunRecord, type RunStatus } from "@waddle/protocol";
import type { WaddleServer } from "../server.js";

/** Resolves with the run once its status is one of `statuses` (default: any terminal status). */
export async function waitForRun(
  server: Pick<WaddleServer, "hub" | "store">,
  runId: string,
  statuses: ReadonlySet<RunStatus> = TERMINAL_RUN_STATUSES,
): Promise<RunRecord> {
  let wake: () => void = () => undefined;
  const stop = server.hub.onStatus((message) => {
    if (message.runId === runId) wake();
  });
  try {
    for (;;) {
      const changed = new Promise<void>((resolve) => (wake = resolve));
      const run = await server.store.getRun(runId);
      if (run && statuses.has(run.status)) return run;
      await changed;
    }
  } finally {
    stop();
  }
}

/** Resolves once a run has an event that matches, whether it was stored before the call or comes later. */
export async function waitForEvent(
  server: Pick<WaddleServer, "hub" | "store">,
  runId: string,
  match: (event: RunEvent) => boolean,
): Promise<RunEvent> {
  let stop: () => void = () => undefined;
  const live = new Promise<RunEvent>((resolve) => {
    stop = server.hub.onRunEvent(runId, (event) => {
      if (match(event)) resolve(event);
    });
  });
  try {
    const stored = (await server.store.listEvents(runId)).find(match);
    return stored ?? (await live);
  } finally {
    stop();
  }
}
