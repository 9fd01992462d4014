import { InProcessRunQueue } from "./in-process-run-queue.js";
import type { PlannerFactory } from "./planner-factory.js";
import { RunExecutor, type TaskHostSource } from "./run-executor.js";
import { createInstanceName, RunService, type RunServiceOptions } from "./run-service.js";

export interface RunManagerOptions extends Pick<
  RunServiceOptions,
  "store" | "hub" | "redactor" | "logger" | "checkSpec" | "observer" | "createRunTrace" | "getStartedBy"
> {
  createPlanner: PlannerFactory;
  maxConcurrentRuns: number;
  taskHosts?: TaskHostSource;
}

/**
 * A claim in one process guards no run from another process (the data folder's lock does): it only makes
 * start, resume and cancel the same conditional writes as in queue mode. Renewed every third of it.
 */
const IN_PROCESS_LEASE_MS = 10_000;

/**
 * The run service of a server that executes its runs itself: the in-process queue (at most
 * `maxConcurrentRuns` at once, the rest `queued`) and an executor without checkpoints.
 */
export class RunManager extends RunService {
  constructor(options: RunManagerOptions) {
    const owner = createInstanceName();
    const leaseMs = IN_PROCESS_LEASE_MS;
    const executor = new RunExecutor({ ...options, owner, leaseMs, checkpoints: false });
    const queue = new InProcessRunQueue({ ...options, executor });
    super({ ...options, queue, owner, leaseMs });
  }
}
