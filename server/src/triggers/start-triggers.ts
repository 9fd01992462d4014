import { notifyNothing, type NotifyFunction } from "../notifications/notify.js";
import type { RunEventHub } from "../runs/run-event-hub.js";
import { createInstanceName, type RunCommands } from "../runs/run-service.js";
import type { Logger } from "../shared/logger.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { TriggerFirer } from "./trigger-firer.js";
import { TriggerScheduler } from "./trigger-scheduler.js";
import { TriggerService } from "./trigger-service.js";

/** The triggers of a running server: what the routes need, and how to stop the scheduler. */
export interface Triggers {
  service: TriggerService;
  firer: TriggerFirer;
  scheduler: TriggerScheduler;
  close(): Promise<void>;
}

/**
 * Starts schedules (with their catch-up) and returns what the trigger routes and `/hooks` need. Every
 * instance runs the scheduler: tick claims in the store make each tick fire once (trigger-scheduler.ts).
 */
export async function startTriggers(options: {
  store: WaddleStore;
  runs: Pick<RunCommands, "startRun">;
  hub: RunEventHub;
  logger: Logger;
  /** `trigger.failed`; nothing is sent without it. */
  notify?: NotifyFunction;
  /** How long a tick's claim lasts before another instance may fire it (the run lease, 10 s by default). */
  leaseMs?: number;
  sweepMs?: number;
}): Promise<Triggers> {
  const { store, logger } = options;
  const firer = new TriggerFirer({
    store,
    runs: options.runs,
    logger,
    notify: options.notify ?? notifyNothing,
  });
  const scheduler = new TriggerScheduler({
    store,
    firer,
    hub: options.hub,
    logger,
    owner: `triggers-${createInstanceName()}`,
    leaseMs: options.leaseMs ?? 10_000,
    ...(options.sweepMs === undefined ? {} : { sweepMs: options.sweepMs }),
  });
  const service = new TriggerService({ store, onChange: () => scheduler.refresh() });
  await scheduler.start();
  return { service, firer, scheduler, close: () => scheduler.stop() };
}
