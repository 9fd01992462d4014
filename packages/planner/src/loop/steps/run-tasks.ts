import type { RunEventData, RunEventType } from "@waddle/protocol";
import { createPreview } from "../../util/create-preview.js";
import type { RunContext } from "../run-context.js";
import { scrubSecrets } from "../../secrets/secret-scrubber.js";
import { executeTaskJob, type StartForkedRun } from "./task-jobs.js";
import { TaskManager } from "../../tasks/task-manager.js";
import { recordMerge } from "./task-results.js";
import type {
  BackgroundTasks,
  SpawnedTask,
  StoppedTask,
  TaskAction,
  TaskGroupSnapshot,
  TaskManagerEvent,
} from "../../tasks/task-types.js";
import { getRemainingMs } from "../budgets/deadline.js";

const TERMINAL = new Set(["completed", "failed", "cancelled", "timed_out"]);

/**
 * The background tasks of one run (segment): a `TaskManager` whose jobs are forked planners and tool
 * calls, whose events go into the run's stream (previews redacted), and whose results are folded into the
 * trajectory at the start of each iteration. Created on the first spawn; closed when the run finishes,
 * fails or pauses (unfinished tasks are cancelled, see docs/background-tasks.md).
 */
export class RunTasks implements BackgroundTasks {
  readonly manager: TaskManager;
  private closed = false;
  private readonly onAbort: () => void;

  /** `startFork` runs a `task.subagent` job as a forked run of the same planner. */
  constructor(
    private readonly run: RunContext,
    startFork: StartForkedRun,
  ) {
    const { config, state } = run;
    const settings = config.options.tasks;
    this.manager = new TaskManager({
      execute: (job, signal) => executeTaskJob({ run, startFork, job, signal, isOpen: () => !this.closed }),
      onEvent: (event) => this.forward(event),
      now: config.clock,
      // Ids continue across resumes, so that one run's stream never reuses a task id.
      createId: (kind) => `${kind}_${(state.taskIdCounter = (state.taskIdCounter ?? 0) + 1)}`,
      maxConcurrent: settings.maxConcurrent,
      maxPerRun: Math.max(0, settings.maxPerRun - (state.tasksSpawned ?? 0)),
      timeoutMs: settings.timeoutS * 1_000,
      defaultMergeStrategy: settings.defaultMergeStrategy,
      preview: (value) => createPreview(value, { maxChars: config.previewChars, redact: run.secrets }),
      ...(config.taskTimers === undefined ? {} : { timers: config.taskTimers }),
    });
    // Cancelling the run cancels its tasks at once, whatever the loop is waiting for.
    this.onAbort = () => this.manager.cancelAll();
    run.signal.addEventListener("abort", this.onAbort, { once: true });
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** Spawns the task of a `task.subagent` / `task.tool` action (throws `TaskError` when it may not). */
  spawn(action: TaskAction): SpawnedTask {
    const spawned = this.manager.spawn(action);
    this.run.state.tasksSpawned = (this.run.state.tasksSpawned ?? 0) + 1;
    return spawned;
  }

  /** `retain_turn`: the foreground waits for the task or its (now sealed) group, within the deadline. */
  async waitFor(spawned: SpawnedTask): Promise<void> {
    const timeoutMs = Math.min(
      this.run.config.options.tasks.timeoutS * 1_000,
      getRemainingMs(this.run) ?? Number.POSITIVE_INFINITY,
    );
    if (spawned.groupId !== undefined) await this.manager.waitForGroup(spawned.groupId, { timeoutMs });
    else await this.manager.waitForTask(spawned.taskId, { timeoutMs });
  }

  getGroup(groupId: string): TaskGroupSnapshot | undefined {
    return this.manager.getGroup(groupId);
  }

  /**
   * Takes the results that arrived: APPEND and REPLACE merges go into the trajectory now; HUMAN_GATED
   * ones wait in the state (`heldMerges`) for a person.
   */
  collect(): void {
    if (this.closed) return;
    for (const merge of this.manager.getPendingMerges()) {
      if (merge.requiresApproval) {
        this.manager.applyMerge(merge.mergeId, "approve");
        (this.run.state.heldMerges ??= []).push(merge);
      } else {
        this.manager.applyMerge(merge.mergeId);
        recordMerge(this.run, merge, "apply");
      }
    }
  }

  /**
   * The run yields (finish, failure, pause): results that arrived are kept when it pauses, unfinished
   * tasks are cancelled (their `task_update` events come before the run's last event), and nothing more is
   * emitted. Returns the tasks it stopped.
   */
  close(options: { keepResults: boolean }): StoppedTask[] {
    if (this.closed) return [];
    if (options.keepResults) this.collect();
    const stopped = this.manager
      .listTasks()
      .filter((task) => !TERMINAL.has(task.status))
      .map((task) => ({ taskId: task.taskId, name: task.name }));
    this.manager.cancelAll();
    this.closed = true;
    this.run.signal.removeEventListener("abort", this.onAbort);
    return stopped;
  }

  private forward(event: TaskManagerEvent): void {
    if (this.closed) return;
    const data = scrubSecrets(event.data, this.run.secrets);
    this.run.events.emit(event.type as RunEventType, data as RunEventData<"task_update">);
  }
}
