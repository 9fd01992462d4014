import type { Browser, Page } from "@playwright/test";

/** One task of the page's main thread: when it started and how long it took, on the wall and on a CPU. */
export interface MainThreadTask {
  /** Trace clock, µs. */
  ts: number;
  wallMs: number;
  cpuMs: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** Top-level work on a thread: tasks, and microtask checkpoints Blink runs outside a task (after a fetch). */
const TASK_NAMES = new Set([
  "ThreadControllerImpl::RunTask",
  "RunTask",
  "BlinkScheduler_PerformMicrotaskCheckpoint",
]);

/**
 * The busiest renderer main thread's top-level tasks (the page's) from a Chrome trace. Each carries its
 * wall duration and its thread CPU time (`tdur`): on a shared machine a task can take far longer than
 * the work in it while the thread waits for a core, and the two tell those apart.
 */
export function getMainThreadTasks(events: readonly TraceEvent[]): MainThreadTask[] {
  const mains = new Set<string>();
  for (const event of events) {
    if (event.ph === "M" && event.name === "thread_name" && event.args?.name === "CrRendererMain")
      mains.add(`${event.pid}:${event.tid}`);
  }
  const byThread = new Map<string, MainThreadTask[]>();
  for (const event of events) {
    const thread = `${event.pid}:${event.tid}`;
    if (event.ph !== "X" || !TASK_NAMES.has(event.name) || !mains.has(thread)) continue;
    const tasks = byThread.get(thread) ?? [];
    tasks.push({
      ts: event.ts,
      wallMs: (event.dur ?? 0) / 1000,
      cpuMs: (event.tdur ?? event.dur ?? 0) / 1000,
    });
    byThread.set(thread, tasks);
  }
  let busiest: MainThreadTask[] = [];
  for (const tasks of byThread.values()) if (tasks.length > busiest.length) busiest = tasks;
  // a nested RunTask (a task run inside another) is part of its parent's time
  const sorted = [...busiest].sort((left, right) => left.ts - right.ts);
  const topLevel: MainThreadTask[] = [];
  for (const task of sorted) {
    const parent = topLevel.at(-1);
    if (parent !== undefined && task.ts < parent.ts + parent.wallMs * 1000) continue;
    topLevel.push(task);
  }
  return topLevel;
}

/** `performance.mark` timestamps on the trace clock (µs), by mark name. */
export function getMarks(events: readonly TraceEvent[]): Map<string, number> {
  const marks = new Map<string, number>();
  for (const event of events) {
    if (event.ph === "R" || event.ph === "I" || event.ph === "n") marks.set(event.name, event.ts);
  }
  return marks;
}

/** The tasks that ran at some point in [from, to] (trace clock, µs). */
export function getTasksBetween(
  tasks: readonly MainThreadTask[],
  from: number,
  to: number,
): MainThreadTask[] {
  return tasks.filter((task) => task.ts <= to && task.ts + task.wallMs * 1000 >= from);
}

/** Their main-thread CPU time in all (ms). */
export function getCpuBetween(tasks: readonly MainThreadTask[], from: number, to: number): number {
  return getTasksBetween(tasks, from, to).reduce((total, task) => total + task.cpuMs, 0);
}

/** The most CPU time the main thread spent in one of them (ms; none: zero). */
export function getMaxCpuBetween(tasks: readonly MainThreadTask[], from: number, to: number): number {
  return Math.max(0, ...getTasksBetween(tasks, from, to).map((task) => task.cpuMs));
}

/** Records the browser's top-level tasks and user-timing marks while `work` runs. */
export async function traceCpu<T>(
  browser: Browser,
  page: Page,
  work: () => Promise<T>,
): Promise<{ result: T; tasks: MainThreadTask[]; marks: Map<string, number> }> {
  await browser.startTracing(page, { categories: ["toplevel", "blink.user_timing"] });
  let result: T;
  let buffer: Buffer;
  try {
    result = await work();
  } finally {
    buffer = await browser.stopTracing();
  }
  const parsed = JSON.parse(buffer.toString("utf8")) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  return { result, tasks: getMainThreadTasks(events), marks: getMarks(events) };
}
