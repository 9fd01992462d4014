import { RunEvent } from "@waddle/protocol";
import { beforeEach, describe, expect, it } from "vitest";
import { isPlannerError } from "../errors/planner-error.js";
import { TaskManager } from "./task-manager.js";
import type { TaskJob, TaskManagerEvent, TaskManagerOptions } from "./task-types.js";
import { ManualTimers } from "../testing/manual-timers.js";

interface Call {
  job: TaskJob;
  signal: AbortSignal;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const capsule = (goal: string) => ({ goal, keyFindings: [`${goal} found`], artifacts: [] });
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
const subagent = (name: string, extra: Record<string, unknown> = {}) => ({
  next_node: "task.subagent" as const,
  args: { name, query: `analyze ${name}`, ...extra },
});

let calls: Call[];
let events: TaskManagerEvent[];
let timers: ManualTimers;
let clock: number;

function createManager(options: Partial<TaskManagerOptions> = {}): TaskManager {
  return new TaskManager({
    execute: (job, signal) => new Promise((resolve, reject) => calls.push({ job, signal, resolve, reject })),
    onEvent: (event) => events.push(event),
    now: () => clock++,
    timers,
    ...options,
  });
}
const call = (name: string): Call => {
  const found = calls.find((item) => item.job.name === name);
  if (found === undefined) throw new Error(`${name} was not started`);
  return found;
};
const ofType = <T extends TaskManagerEvent["type"]>(type: T) =>
  events.filter((event): event is Extract<TaskManagerEvent, { type: T }> => event.type === type);

function expectTaskError(run: () => unknown, code: string): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(isPlannerError(caught, code), String(caught)).toBe(true);
}

beforeEach(() => {
  calls = [];
  events = [];
  timers = new ManualTimers();
  clock = 1_000;
});

describe("TaskManager: single tasks", () => {
  it("runs a subagent and holds its ContextCapsule as an APPEND merge", async () => {
    const manager = createManager();
    const spawned = manager.spawn(subagent("sales"));
    expect(spawned).toEqual({ taskId: "task_1", status: "running", retainTurn: false });
    expect(call("sales").job).toEqual({
      taskId: "task_1",
      name: "sales",
      mode: "subagent",
      query: "analyze sales",
    });
    call("sales").resolve(capsule("sales"));
    await flush();
    expect(events.map((event) => [event.type, "status" in event.data ? event.data.status : ""])).toEqual([
      ["task_spawned", ""],
      ["task_update", "running"],
      ["task_update", "completed"],
    ]);
    const [merge] = manager.getPendingMerges();
    expect(merge).toMatchObject({ kind: "task", strategy: "APPEND", requiresApproval: false, name: "sales" });
    expect(merge?.tasks[0]?.result).toEqual(capsule("sales"));
    expect(manager.applyMerge(merge!.mergeId)).toMatchObject({ applied: true });
    expect(manager.getPendingMerges()).toEqual([]);
    for (const [index, event] of events.entries()) {
      RunEvent.parse({ runId: "r", seq: index + 1, ts: 0, step: 0, ...event });
    }
  });

  it("runs one tool as a job", async () => {
    const manager = createManager();
    manager.spawn({
      next_node: "task.tool",
      args: { name: "fetch", tool: "fetch_page", tool_args: { url: "u" } },
    });
    expect(call("fetch").job).toMatchObject({ mode: "tool", tool: "fetch_page", toolArgs: { url: "u" } });
    expect(ofType("task_spawned")[0]?.data).toMatchObject({ mode: "tool", tool: "fetch_page" });
    call("fetch").resolve({ status: 200 });
    await flush();
    expect(manager.getTask("task_1")).toMatchObject({ status: "completed", result: { status: 200 } });
  });

  it("fails a subagent that returns a transcript instead of a capsule, and keeps error codes", async () => {
    const manager = createManager();
    manager.spawn(subagent("a"));
    manager.spawn(subagent("b"));
    manager.spawn(subagent("c"));
    call("a").resolve({ transcript: ["…"] });
    call("b").reject(Object.assign(new Error("quota"), { code: "llm_failed" }));
    call("c").reject("plain");
    await flush();
    expect(manager.listTasks().map((task) => [task.status, task.error?.code])).toEqual([
      ["failed", "invalid_task_result"],
      ["failed", "llm_failed"],
      ["failed", "task_failed"],
    ]);
    expect(manager.getPendingMerges()).toHaveLength(3);
  });

  it("refuses invalid args with a fix", () => {
    const manager = createManager();
    expectTaskError(
      () => manager.spawn({ next_node: "task.subagent", args: { name: "x" } }),
      "invalid_task_args",
    );
    expectTaskError(
      () => manager.spawn({ next_node: "task.tool", args: { name: "x" } }),
      "invalid_task_args",
    );
  });

  it("gates a HUMAN_GATED task's merge on an explicit decision", async () => {
    const manager = createManager();
    manager.spawn(subagent("report", { merge_strategy: "HUMAN_GATED" }));
    call("report").resolve(capsule("report"));
    await flush();
    const [merge] = manager.getPendingMerges();
    expect(merge?.requiresApproval).toBe(true);
    expectTaskError(() => manager.applyMerge(merge!.mergeId), "merge_requires_decision");
    expect(manager.applyMerge(merge!.mergeId, "reject")).toMatchObject({ applied: false });
    expectTaskError(() => manager.applyMerge(merge!.mergeId, "approve"), "unknown_merge");
  });
});

describe("TaskManager: limits and cancellation", () => {
  it("queues past maxConcurrent and starts the next when one finishes", async () => {
    const manager = createManager({ maxConcurrent: 2 });
    manager.spawn(subagent("a"));
    manager.spawn(subagent("b"));
    expect(manager.spawn(subagent("c")).status).toBe("queued");
    expect(calls).toHaveLength(2);
    call("a").resolve(capsule("a"));
    await flush();
    expect(calls.map((item) => item.job.name)).toEqual(["a", "b", "c"]);
    expect(manager.getTask("task_3")?.status).toBe("running");
  });

  it("refuses spawns past maxPerRun with a structured error", () => {
    const manager = createManager({ maxPerRun: 2 });
    manager.spawn(subagent("a"));
    manager.spawn(subagent("b"));
    let caught: unknown;
    try {
      manager.spawn(subagent("c"));
    } catch (error) {
      caught = error;
    }
    expect(isPlannerError(caught, "task_limit_exceeded")).toBe(true);
    expect((caught as { details?: unknown }).details).toEqual({ limit: 2, spawned: 2 });
  });

  it("times a task out, aborts it and ignores a late result", async () => {
    const manager = createManager({ timeoutMs: 5_000 });
    manager.spawn(subagent("slow"));
    timers.fire(5_000);
    expect(call("slow").signal.aborted).toBe(true);
    call("slow").resolve(capsule("late"));
    await flush();
    expect(manager.getTask("task_1")).toMatchObject({ status: "timed_out", error: { code: "task_timeout" } });
    expect(manager.getTask("task_1")?.result).toBeUndefined();
  });

  it("cancelAll aborts running tasks, drops queued ones and refuses new spawns", async () => {
    const manager = createManager({ maxConcurrent: 1 });
    manager.spawn(subagent("a"));
    manager.spawn(subagent("b"));
    const waiting = manager.waitForTask("task_2", { timeoutMs: 60_000 });
    expect(manager.cancelAll()).toBe(2);
    expect(call("a").signal.aborted).toBe(true);
    expect(calls).toHaveLength(1);
    expect((await waiting).status).toBe("cancelled");
    expect(manager.listTasks().map((task) => task.status)).toEqual(["cancelled", "cancelled"]);
    expect(manager.getPendingMerges()).toEqual([]);
    expect(timers.pending.size).toBe(0);
    expectTaskError(() => manager.spawn(subagent("c")), "tasks_cancelled");
  });
});
