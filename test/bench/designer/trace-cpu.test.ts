import { describe, expect, it } from "vitest";
import { getCpuBetween, getMainThreadTasks, getMarks, getMaxCpuBetween } from "./trace-cpu.js";

const thread = (pid: number, tid: number, name: string) => ({
  name: "thread_name",
  ph: "M",
  pid,
  tid,
  ts: 0,
  args: { name },
});
const task = (tid: number, ts: number, dur: number, tdur: number) => ({
  name: "ThreadControllerImpl::RunTask",
  ph: "X",
  pid: 2,
  tid,
  ts,
  dur,
  tdur,
});

const EVENTS = [
  thread(2, 1, "CrRendererMain"),
  thread(2, 5, "Compositor"),
  thread(3, 1, "CrRendererMain"),
  task(1, 1_000, 80_000, 40_000),
  // nested in the first: part of its time
  task(1, 2_000, 10_000, 10_000),
  task(1, 100_000, 5_000, 5_000),
  task(5, 1_000, 90_000, 90_000),
  {
    name: "BlinkScheduler_PerformMicrotaskCheckpoint",
    ph: "X",
    pid: 2,
    tid: 1,
    ts: 120_000,
    dur: 60_000,
    tdur: 30_000,
  },
  { name: "ThreadControllerImpl::RunTask", ph: "X", pid: 3, tid: 1, ts: 0, dur: 1_000, tdur: 1_000 },
  { name: "jump-0-start", ph: "R", pid: 2, tid: 1, ts: 500 },
  { name: "jump-0-end", ph: "R", pid: 2, tid: 1, ts: 90_000 },
];

describe("trace CPU helpers", () => {
  it("takes the busiest renderer main thread's top-level tasks and checkpoints, wall and CPU in ms", () => {
    expect(getMainThreadTasks(EVENTS)).toEqual([
      { ts: 1_000, wallMs: 80, cpuMs: 40 },
      { ts: 100_000, wallMs: 5, cpuMs: 5 },
      { ts: 120_000, wallMs: 60, cpuMs: 30 },
    ]);
  });

  it("sums CPU over a marked span and finds the most CPU in one task", () => {
    const tasks = getMainThreadTasks(EVENTS);
    const marks = getMarks(EVENTS);
    const from = marks.get("jump-0-start")!;
    const to = marks.get("jump-0-end")!;
    expect(getCpuBetween(tasks, from, to)).toBe(40);
    expect(getMaxCpuBetween(tasks, from, 200_000)).toBe(40);
    expect(getMaxCpuBetween(tasks, 250_000, 300_000)).toBe(0);
  });
});
