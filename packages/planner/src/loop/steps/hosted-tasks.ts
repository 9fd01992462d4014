import type { RunEventData } from "@waddle/protocol";
import { scrubSecrets } from "../../secrets/secret-scrubber.js";
import { parseTaskAction } from "../../tasks/task-spawn.js";
import type { HostedWaitResult, TaskHost } from "../../run/task-host.js";
import type {
  BackgroundTasks,
  SpawnedTask,
  StoppedTask,
  TaskAction,
  TaskGroupSnapshot,
} from "../../tasks/task-types.js";
import type { RunContext } from "../run-context.js";
import { TASK_RESULTS_NODE } from "./task-results.js";
import { getRemainingMs } from "../budgets/deadline.js";

/**
 * A run's background tasks when a `TaskHost` runs them (docs/background-tasks.md): each spawn goes to the
 * host (which assigns ids, groups and limits across turns), `retain_turn` waits on the host and adds what
 * it got as a planner note, and when the run yields the host is told so that it seals the turn's open
 * groups. Nothing is cancelled here: the tasks outlive the turn, and their later results are the host's to
 * deliver (a session gives them to its next turn).
 */
export class HostedTasks implements BackgroundTasks {
  readonly outlivesTurn = true;
  private closed = false;

  constructor(
    private readonly run: RunContext,
    private readonly host: TaskHost,
  ) {}

  get isOpen(): boolean {
    return !this.closed;
  }

  async spawn(action: TaskAction): Promise<SpawnedTask> {
    // The same refusal as without a host, before the host is asked (the model gets the fix).
    parseTaskAction(action);
    const spawned = await this.host.spawn({ runId: this.run.state.runId, action, signal: this.run.signal });
    this.run.state.tasksSpawned = (this.run.state.tasksSpawned ?? 0) + 1;
    const data: RunEventData<"task_spawned"> = {
      taskId: spawned.taskId,
      name: spawned.name,
      mode: spawned.mode,
      mergeStrategy: spawned.mergeStrategy,
      ...(spawned.groupId === undefined ? {} : { groupId: spawned.groupId }),
      ...(spawned.group === undefined ? {} : { group: spawned.group }),
      ...(spawned.tool === undefined ? {} : { tool: spawned.tool }),
    };
    this.run.events.emit("task_spawned", scrubSecrets(data, this.run.secrets));
    return {
      taskId: spawned.taskId,
      status: spawned.status,
      ...(spawned.groupId === undefined ? {} : { groupId: spawned.groupId }),
      retainTurn: spawned.retainTurn,
    };
  }

  /** `retain_turn`: waits on the host within the task limit and the deadline; what it got becomes a note. */
  async waitFor(spawned: SpawnedTask): Promise<void> {
    const timeoutMs = Math.min(
      this.run.config.options.tasks.timeoutS * 1_000,
      getRemainingMs(this.run) ?? Number.POSITIVE_INFINITY,
    );
    const waited = await this.host.wait({
      taskId: spawned.taskId,
      ...(spawned.groupId === undefined ? {} : { groupId: spawned.groupId }),
      timeoutMs,
      signal: this.run.signal,
    });
    if (this.run.signal.aborted) return;
    recordHostedWait(this.run, waited);
  }

  /** The host holds the groups. */
  getGroup(): TaskGroupSnapshot | undefined {
    return undefined;
  }

  /** Results that arrive after a spawn are the host's to deliver. */
  collect(): void {}

  close(options: { keepResults: boolean; reason?: "finished" | "failed" | "paused" }): StoppedTask[] {
    if (this.closed) return [];
    this.closed = true;
    const reason = options.reason ?? (options.keepResults ? "paused" : "finished");
    try {
      const told = this.host.yieldTurn({ runId: this.run.state.runId, reason });
      // A host that fails to hear it must not break the run's ending (it seals on its own record too).
      if (told instanceof Promise) told.catch(() => undefined);
    } catch {
      // as above
    }
    return [];
  }
}

/** A retained wait's outcome as the planner note the model reads (`{"task_results": …}`). */
function recordHostedWait(run: Pick<RunContext, "recordStep" | "secrets">, waited: HostedWaitResult): void {
  const results: Record<string, unknown> = {
    name: waited.name,
    strategy: waited.strategy,
    ...(waited.groupId === undefined ? {} : { groupId: waited.groupId }),
    ...(waited.report === undefined ? {} : { report: waited.report }),
    complete: waited.status === "completed",
  };
  if (waited.status === "timeout") {
    results["message"] = "The wait ended before every task did: the rest reach a later turn.";
  }
  if (waited.held !== undefined) {
    results["held"] = true;
    results["message"] =
      "These results wait for a person's approval (HUMAN_GATED): they reach a later turn once approved.";
    results["tasks"] = waited.tasks.map(({ taskId, name, status }) => ({ taskId, name, status }));
  } else {
    results["tasks"] = waited.tasks;
  }
  run.recordStep({
    action: {
      next_node: TASK_RESULTS_NODE,
      args: { name: waited.name, ...(waited.groupId === undefined ? {} : { groupId: waited.groupId }) },
    },
    source: "system",
    observation: { task_results: scrubSecrets(results, run.secrets) },
    note: true,
  });
}
