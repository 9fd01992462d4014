import { RunEvent } from "@waddle/protocol";
import { beforeEach, describe, expect, it } from "vitest";
import { isPlannerError } from "../errors/planner-error.js";
import { TaskManager } from "./task-manager.js";
import type { TaskJob, TaskManagerEvent } from "./task-types.js";
import { ManualTimers } from "../testing/manual-timers.js";

const capsule = (goal: string) => ({ goal, keyFindings: [`${goal} found`], artifacts: [] });
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
const task = (name: string, args: Record<string, unknown> = {}) => ({
  next_node: "task.subagent" as const,
  args: { name, query: `analyze ${name}`, ...args },
});

let resolvers: Map<string, (value: unknown) => void>;
let events: TaskManagerEvent[];
let timers: ManualTimers;
let manager: TaskManager;

beforeEach(() => {
  resolvers = new Map();
  events = [];
  timers = new ManualTimers();
  manager = new TaskManager({
    execute: (job: TaskJob) => new Promise((resolve) => resolvers.set(job.name, resolve)),
    onEvent: (event) => events.push(event),
    now: () => 0,
    timers,
  });
});

async function finish(...names: string[]): Promise<void> {
  for (const name of names) resolvers.get(name)?.(capsule(name));
  await flush();
}
const reports = () => events.filter((event) => event.type === "task_group_report");

/** Three research tasks in one group, sealed on the last one. */
function spawnQ4(extra: Record<string, unknown> = {}): string[] {
  return [
    manager.spawn(task("sales", { group: "q4_analysis", ...extra })),
    manager.spawn(task("marketing", { group: "q4_analysis", ...extra })),
    manager.spawn(task("ops", { group: "q4_analysis", group_sealed: true, ...extra })),
  ].map((spawned) => spawned.groupId ?? "");
}

describe("task groups: joining and sealing", () => {
  it("joins an open group by name within a turn", () => {
    const ids = spawnQ4();
    expect(new Set(ids).size).toBe(1);
    expect(manager.getGroup(ids[0]!)).toMatchObject({ name: "q4_analysis", sealed: true, report: "all" });
    expect(events.find((event) => event.type === "task_spawned")?.data).toMatchObject({
      groupId: ids[0],
      group: "q4_analysis",
    });
  });

  it("a sealed group takes no more tasks; the same name then starts a new group", () => {
    const [groupId] = spawnQ4();
    expect(() => manager.spawn(task("late", { group_id: groupId }))).toThrow(/sealed/);
    const again = manager.spawn(task("late", { group: "q4_analysis" }));
    expect(again.groupId).not.toBe(groupId);
  });

  it("joins by group_id, and refuses an unknown one", () => {
    const first = manager.spawn(task("a", { group: "g" }));
    const second = manager.spawn(task("b", { group_id: first.groupId }));
    expect(second.groupId).toBe(first.groupId);
    let caught: unknown;
    try {
      manager.spawn(task("c", { group_id: "group_99" }));
    } catch (error) {
      caught = error;
    }
    expect(isPlannerError(caught, "unknown_task_group")).toBe(true);
  });

  it("auto-seals open groups when the foreground yields; the name is new in the next turn", async () => {
    const first = manager.spawn(task("a", { group: "research" }));
    await finish("a");
    expect(reports()).toHaveLength(0);
    expect(manager.sealOpenGroups()).toEqual([first.groupId]);
    expect(reports()).toHaveLength(1);
    const next = manager.spawn(task("b", { group: "research" }));
    expect(next.groupId).not.toBe(first.groupId);
    expect(manager.getGroup(next.groupId!)?.turn).toBe(2);
  });
});

describe("task groups: reporting and merging", () => {
  it("all (the default): one report and one combined merge when the sealed group is done", async () => {
    const [groupId] = spawnQ4();
    await finish("sales", "marketing");
    expect(reports()).toHaveLength(0);
    expect(manager.getPendingMerges()).toHaveLength(0);
    await finish("ops");
    expect(reports()).toHaveLength(1);
    expect(reports()[0]?.data).toMatchObject({ groupId, report: "all", mergeStrategy: "APPEND" });
    const merges = manager.getPendingMerges();
    expect(merges).toHaveLength(1);
    expect(merges[0]).toMatchObject({ kind: "group", groupId, strategy: "APPEND", requiresApproval: false });
    expect(merges[0]?.tasks.map((entry) => entry.name)).toEqual(["sales", "marketing", "ops"]);
  });

  it("any: a report and a merge per finished task", async () => {
    spawnQ4({ group_report: "any" });
    await finish("marketing");
    expect(reports().map((event) => event.data.tasks.map((entry) => entry.name))).toEqual([["marketing"]]);
    expect(manager.getPendingMerges().map((merge) => merge.kind)).toEqual(["task"]);
    await finish("sales", "ops");
    expect(reports()).toHaveLength(3);
    expect(manager.getPendingMerges()).toHaveLength(3);
  });

  it("none: no reports and no merges; callers poll the group", async () => {
    const [groupId] = spawnQ4({ group_report: "none" });
    await finish("sales", "marketing", "ops");
    expect(reports()).toHaveLength(0);
    expect(manager.getPendingMerges()).toHaveLength(0);
    const group = manager.getGroup(groupId!);
    expect(group?.complete).toBe(true);
    expect(group?.tasks.map((entry) => entry.result)).toEqual([
      capsule("sales"),
      capsule("marketing"),
      capsule("ops"),
    ]);
  });

  it("HUMAN_GATED: results are held until the group is done, then approved as one batch", async () => {
    spawnQ4({ merge_strategy: "HUMAN_GATED", group_report: "any" });
    await finish("sales", "marketing");
    expect(reports()).toHaveLength(2);
    expect(manager.getPendingMerges()).toHaveLength(0);
    await finish("ops");
    const [merge] = manager.getPendingMerges();
    expect(merge).toMatchObject({ kind: "group", strategy: "HUMAN_GATED", requiresApproval: true });
    expect(merge?.tasks).toHaveLength(3);
    expect(() => manager.applyMerge(merge!.mergeId)).toThrow(/HUMAN_GATED/);
    expect(manager.applyMerge(merge!.mergeId, "approve").applied).toBe(true);
  });

  it("group_merge_strategy sets the combined result's strategy, else it inherits merge_strategy", async () => {
    const replaced = manager.spawn(
      task("a", {
        group: "g1",
        group_sealed: true,
        merge_strategy: "APPEND",
        group_merge_strategy: "REPLACE",
      }),
    );
    const inherited = manager.spawn(
      task("b", { group: "g2", group_sealed: true, merge_strategy: "REPLACE" }),
    );
    const gated = manager.spawn(task("c", { group: "g3" }));
    manager.spawn(task("d", { group: "g3", group_sealed: true, merge_strategy: "HUMAN_GATED" }));
    expect(manager.getGroup(replaced.groupId!)?.mergeStrategy).toBe("REPLACE");
    expect(manager.getGroup(inherited.groupId!)?.mergeStrategy).toBe("REPLACE");
    // Any HUMAN_GATED member gates the combined result unless group_merge_strategy says otherwise.
    expect(manager.getGroup(gated.groupId!)?.mergeStrategy).toBe("HUMAN_GATED");
    await finish("a", "b", "c", "d");
    expect(manager.getPendingMerges().map((merge) => merge.strategy)).toEqual([
      "REPLACE",
      "REPLACE",
      "HUMAN_GATED",
    ]);
  });

  it("reports failed tasks with their errors", async () => {
    spawnQ4();
    await finish("sales", "marketing");
    manager.cancel("task_3");
    await flush();
    const [report] = reports();
    expect(report?.data.tasks.map((entry) => entry.status)).toEqual(["completed", "completed", "cancelled"]);
    RunEvent.parse({ runId: "r", seq: 1, ts: 0, step: 0, ...report });
  });
});

describe("task groups: retain_turn", () => {
  it("waits for a sealed group it joined", async () => {
    const spawned = manager.spawn(
      task("deep", { group: "investigation", group_sealed: true, retain_turn: true, group_report: "all" }),
    );
    expect(spawned.retainTurn).toBe(true);
    const waiting = manager.waitForGroup(spawned.groupId!, { timeoutMs: 60_000 });
    await finish("deep");
    const result = await waiting;
    expect(result.status).toBe("completed");
    expect(result.snapshot.tasks[0]?.status).toBe("completed");
    expect(timers.pending.size).toBe(0);
  });

  it("gives up at the timeout, and waiting seals an open group", async () => {
    const spawned = manager.spawn(task("deep", { group: "investigation", retain_turn: true }));
    const waiting = manager.waitForGroup(spawned.groupId!, { timeoutMs: 1_000 });
    expect(manager.getGroup(spawned.groupId!)?.sealed).toBe(true);
    timers.fire(1_000);
    expect((await waiting).status).toBe("timeout");
  });

  it("answers at once for a finished group", async () => {
    const spawned = manager.spawn(task("quick", { group: "g", group_sealed: true }));
    await finish("quick");
    expect((await manager.waitForGroup(spawned.groupId!, { timeoutMs: 1 })).status).toBe("completed");
  });
});
