import type { GroupReport, MergeStrategy } from "@waddle/protocol";
import type { TaskErrorInfo } from "./pending-merge.js";

/** A task as its spawn answers: queued past a limit, or running. */
export interface SpawnedTask {
  taskId: string;
  status: "queued" | "running";
  groupId?: string;
  /** True when the task asked to keep the turn: wait with `waitForGroup` / `waitForTask`. */
  retainTurn: boolean;
}

/** A `task.subagent` / `task.tool` action as the planner hands it over. */
export interface TaskAction {
  next_node: "task.subagent" | "task.tool";
  args: Record<string, unknown>;
}

/**
 * Who runs a run's background tasks when they must outlive its turn (docs/background-tasks.md): a host
 * such as the server's sessions, where a task is a run of its own. Given as `RunOptions.taskHost`, it takes
 * over what the run's in-memory `TaskManager` does otherwise: the host spawns each task as an external job
 * (ids, groups and limits are its own), `retain_turn` waits on it, and when the turn yields the host is
 * told, so that the turn's open groups are sealed — and unfinished tasks go on instead of being cancelled.
 * Results that arrive after the turn are the host's to deliver (the next turn's context, a pending merge).
 */
export interface TaskHost {
  /** Starts the task of a `task.subagent` / `task.tool` action; throws `TaskError` when it may not. */
  spawn(request: HostedSpawnRequest): Promise<HostedSpawn>;
  /** `retain_turn`: resolves once the task (or its group) ended, or at `timeoutMs`, with what it has. */
  wait(request: HostedWaitRequest): Promise<HostedWaitResult>;
  /** The turn yields (answered, failed or paused for a person): its open groups are sealed. */
  yieldTurn(event: { runId: string; reason: "finished" | "failed" | "paused" }): void | Promise<void>;
}

export interface HostedSpawnRequest {
  /** The spawning run (the turn). */
  runId: string;
  /** The action, its args checked (and a `task.tool`'s tool args validated against the tool). */
  action: TaskAction;
  signal: AbortSignal;
}

/** A task the host started (or queued past its concurrency limit). */
export interface HostedSpawn extends SpawnedTask {
  name: string;
  mode: "subagent" | "tool";
  mergeStrategy: MergeStrategy;
  /** The group's name, when the task joined one. */
  group?: string;
  tool?: string;
  /** The task's own run, when the host runs tasks as runs. */
  runId?: string;
}

export interface HostedWaitRequest {
  taskId: string;
  groupId?: string;
  timeoutMs: number;
  signal: AbortSignal;
}

/** A task's outcome as the host reports it (`interrupted`: its process stopped under it). */
export interface HostedTaskEntry {
  taskId: string;
  name: string;
  status: string;
  result?: unknown;
  error?: TaskErrorInfo;
}

export interface HostedWaitResult {
  /** `completed`: everything waited for ended; `timeout`: the wait gave up; `cancelled`: the turn stopped. */
  status: "completed" | "timeout" | "cancelled";
  /** The task's name, or the group's. */
  name: string;
  groupId?: string;
  report?: GroupReport;
  strategy: MergeStrategy;
  tasks: HostedTaskEntry[];
  /** HUMAN_GATED: the results wait for a person on the host (`mergeId`), so the turn does not get them. */
  held?: { mergeId?: string };
}
