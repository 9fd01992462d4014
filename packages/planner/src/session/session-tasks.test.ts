import {
  applySessionEvent,
  createSessionRecord,
  TERMINAL_TASK_STATUSES,
  type NewSessionEvent,
  type SessionEvent,
  type SessionRecord,
} from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCatalog } from "../catalog/catalog.js";
import { defineTool } from "../catalog/tool.js";
import { ReactPlanner } from "../loop/react-planner.js";
import type { TaskHost } from "../run/task-host.js";
import { answer, call } from "../testing/run-harness.js";
import { ScriptedClient, type ScriptedCall, type ScriptedReply } from "../testing/scripted-client.js";
import { getSessionContextMeta } from "./session-context.js";
import {
  applySessionTaskOutcome,
  getSessionMergedResults,
  getSessionWaitResult,
  sealSessionTurn,
  spawnSessionTask,
  type SessionTaskLimits,
} from "./session-task-ledger.js";

/** Lets pending callbacks run (task runs finishing, their outcomes applied); not a timed wait. */
const settle = async (rounds = 5) => {
  for (let round = 0; round < rounds; round += 1) await new Promise<void>((resolve) => setImmediate(resolve));
};

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** A `slow` tool whose calls finish when the test releases them, by id. */
function createTools() {
  const gates = new Map<string, () => void>();
  const slow = defineTool({
    name: "slow",
    desc: "A report that finishes when the test says so",
    args: z.object({ id: z.string() }),
    out: z.object({ report: z.string() }),
    run: async ({ id }) => {
      const gate = deferred();
      gates.set(id, gate.resolve);
      await gate.promise;
      if (id.startsWith("fail")) throw new Error(`report ${id} broke`);
      return { report: `report ${id}` };
    },
  });
  const send = defineTool({
    name: "send",
    desc: "Sends a message",
    args: z.object({}),
    out: z.object({ sent: z.boolean() }),
    requiresApproval: true,
    run: () => ({ sent: true }),
  });
  const release = async (id: string) => {
    for (let round = 0; round < 20 && !gates.has(id); round += 1) await settle(1);
    const open = gates.get(id);
    if (open === undefined) throw new Error(`no call of slow with id ${id} started`);
    gates.delete(id);
    open();
    await settle();
  };
  return { tools: [slow, send], release };
}

const LIMITS: SessionTaskLimits = { maxConcurrent: 4, maxPerSession: 16, defaultMergeStrategy: "APPEND" };

/**
 * A session kept in memory the way the server keeps it: its log folded by `applySessionEvent`, every
 * decision taken by the ledger on the record, each task run by `planner.runTask` as a run of its own.
 */
class MemorySession {
  record: SessionRecord = createSessionRecord({
    id: "ses_test",
    agentId: "agent",
    agentVersion: 1,
    createdAt: new Date(0).toISOString(),
  });
  readonly log: SessionEvent[] = [];
  private changed = deferred();
  private runs = 0;

  constructor(
    private readonly planner: ReactPlanner,
    private readonly limits: SessionTaskLimits = LIMITS,
  ) {}

  apply(events: readonly NewSessionEvent[]): void {
    for (const event of events) {
      const stored = {
        ...event,
        sessionId: this.record.id,
        seq: this.record.lastSeq + 1,
        ts: 1_000,
      } as SessionEvent;
      this.log.push(stored);
      this.record = applySessionEvent(this.record, stored);
    }
    this.changed.resolve();
    this.changed = deferred();
  }

  /** One turn: a run of the planner with the session's context and this session as its task host. */
  async turn(query: string) {
    const turn = this.record.turns.length + 1;
    const runId = `run_turn_${turn}`;
    const context = getSessionContextMeta({
      turns: this.record.turns.map((item) => ({ turn: item.turn, query: item.query, answer: item.answer })),
      merged: getSessionMergedResults(this.record),
      openTodos: [],
    });
    this.apply([{ type: "turn_started", data: { runId, turn, query } }]);
    const outcome = await this.planner.run(query, {
      runId,
      contextMeta: context,
      taskHost: this.host(runId, turn),
    });
    const answered = outcome.kind === "finish" ? outcome.payload.answer : null;
    const seal = sealSessionTurn(this.record, turn);
    this.apply([
      {
        type: "turn_ended",
        data: { runId, turn, status: outcome.kind === "finish" ? "finished" : "paused", answer: answered },
      },
      ...seal,
    ]);
    return outcome;
  }

  decide(mergeId: string, decision: "approve" | "reject"): void {
    this.apply([{ type: "merge_decided", data: { mergeId, decision } }]);
  }

  ofType<T extends SessionEvent["type"]>(type: T) {
    return this.log.filter((event): event is Extract<SessionEvent, { type: T }> => event.type === type);
  }

  private host(parentRunId: string, turn: number): TaskHost {
    return {
      spawn: async ({ action }) => {
        this.runs += 1;
        const spawned = spawnSessionTask(this.record, {
          action,
          turn,
          parentRunId,
          runId: `run_task_${this.runs}`,
          limits: this.limits,
        });
        this.apply(spawned.events);
        if (spawned.task.status === "running") this.start(spawned.task.taskId);
        return spawned.task;
      },
      wait: async ({ taskId, groupId }) => {
        for (;;) {
          const done = getSessionWaitResult(this.record, { taskId, ...(groupId ? { groupId } : {}) });
          if (done !== undefined) return done;
          await this.changed.promise;
        }
      },
      yieldTurn: () => undefined,
    };
  }

  private start(taskId: string): void {
    const task = this.record.tasks.find((item) => item.taskId === taskId)!;
    const job = { taskId, mode: task.job!.mode, ...task.job };
    void this.planner.runTask(job, { runId: task.runId }).then(
      (outcome) => {
        const finished = outcome.kind === "finish" && outcome.reason !== "cancelled";
        this.end(
          taskId,
          finished
            ? { status: "completed", result: outcome.payload.artifacts["task_result"] }
            : { status: "cancelled" },
        );
      },
      (error: { code?: string; message?: string }) =>
        this.end(taskId, {
          status: error.code === "task_timeout" ? "timed_out" : "failed",
          error: { code: error.code ?? "task_failed", message: error.message ?? String(error) },
        }),
    );
  }

  private end(taskId: string, outcome: Omit<Parameters<typeof applySessionTaskOutcome>[1], "taskId">): void {
    const applied = applySessionTaskOutcome(this.record, { taskId, ...outcome }, this.limits);
    this.apply(applied.events);
    for (const next of applied.start) this.start(next.taskId);
  }
}

function makeSession(replies: ScriptedReply[], limits?: SessionTaskLimits) {
  const tools = createTools();
  const client = new ScriptedClient(replies);
  const planner = new ReactPlanner({
    llm: client,
    catalog: buildCatalog({ tools: tools.tools }),
    options: {
      maxIters: 12,
      toolRetry: { maxAttempts: 1, backoffMs: 0, maxBackoffMs: 0 },
      tasks: { enabled: true, spawnRequiresConfirmation: false },
    },
  });
  return { session: new MemorySession(planner, limits), client, ...tools };
}

const slowTask = (name: string, id: string, extra: Record<string, unknown> = {}) =>
  call("task.tool", { name, tool: "slow", tool_args: { id }, ...extra });

/** What a call's user message carries as `contextMeta.session`. */
function getSessionMeta(entry: ScriptedCall | undefined): Record<string, unknown> {
  const user = entry?.messages.find((message) => message.role === "user")?.content ?? "";
  const parsed = JSON.parse(user) as { context?: { session?: Record<string, unknown> } };
  return parsed.context?.session ?? {};
}

describe("session tasks with a TaskHost: tasks outlive their turn", () => {
  it("APPEND: a task spawned in turn 1 runs on after its answer, and its result reaches turn 2's context", async () => {
    const { session, client, release } = makeSession([
      slowTask("report", "a"),
      answer("Started."),
      answer("Here it is."),
    ]);
    const first = await session.turn("Write the report in the background");
    expect(first).toMatchObject({ kind: "finish", payload: { answer: "Started." } });
    // Without a host the run cancels its unfinished tasks when it answers; with one, the task goes on.
    expect(session.record.tasks).toEqual([
      expect.objectContaining({
        taskId: "task_1",
        runId: "run_task_1",
        parentRunId: "run_turn_1",
        turn: 1,
        status: "running",
      }),
    ]);
    const spawnedStep = JSON.parse(client.calls[1]!.messages.at(-1)!.content) as {
      observation: { message: string };
    };
    expect(spawnedStep.observation.message).toContain("goes on after this answer");
    await release("a");
    expect(session.record.tasks[0]).toMatchObject({ status: "completed", result: { report: "report a" } });
    expect(session.record.merged).toEqual([
      expect.objectContaining({ name: "report", strategy: "APPEND", afterTurn: 1 }),
    ]);
    await session.turn("What did the report say?");
    const meta = getSessionMeta(client.calls[2]);
    expect(meta["merged_results"]).toEqual([
      expect.objectContaining({
        name: "report",
        strategy: "APPEND",
        after_turn: 1,
        tasks: [
          expect.objectContaining({ taskId: "task_1", status: "completed", result: { report: "report a" } }),
        ],
      }),
    ]);
  });

  it("a task that fails is a task_update with its error, and the next turn sees it", async () => {
    const { session, client, release } = makeSession([
      slowTask("flaky", "fail-1"),
      answer("Started."),
      answer("It failed."),
    ]);
    await session.turn("Run the flaky report in the background");
    await release("fail-1");
    const update = session.ofType("task_update").at(-1)!;
    expect(update.data).toMatchObject({
      taskId: "task_1",
      status: "failed",
      error: { message: expect.stringContaining("report fail-1 broke") },
    });
    await session.turn("Did it work?");
    const merged = getSessionMeta(client.calls[2])["merged_results"] as {
      tasks: { status: string; error?: unknown }[];
    }[];
    expect(merged[0]?.tasks[0]).toMatchObject({ status: "failed", error: { code: expect.any(String) } });
  });

  it("retain_turn waits inside the turn: the result comes as a note before the answer", async () => {
    const { session, client, release } = makeSession([
      async () => {
        setImmediate(() => void release("r"));
        return slowTask("report", "r", { retain_turn: true });
      },
      answer("Done, with the report."),
    ]);
    const outcome = await session.turn("Report, and wait for it");
    expect(outcome).toMatchObject({ kind: "finish" });
    const note = JSON.parse(client.calls[1]!.messages.at(-1)!.content) as {
      task_results: Record<string, unknown>;
    };
    expect(note.task_results).toMatchObject({
      name: "report",
      complete: true,
      tasks: [{ taskId: "task_1", status: "completed", result: { report: "report r" } }],
    });
    expect(session.record.tasks[0]?.status).toBe("completed");
  });

  it("group_report all: the group stays open until its turn yields, then reports once when every task ended", async () => {
    const { session, release } = makeSession([
      slowTask("north", "n", { group: "survey" }),
      slowTask("south", "s", { group: "survey" }),
      answer("Surveying."),
    ]);
    await session.turn("Survey both regions in the background");
    expect(session.record.groups).toEqual([
      expect.objectContaining({
        groupId: "group_1",
        name: "survey",
        turn: 1,
        sealed: true,
        report: "all",
        complete: false,
      }),
    ]);
    expect(session.record.tasks.map((task) => task.groupId)).toEqual(["group_1", "group_1"]);
    await release("n");
    expect(session.ofType("task_group_report")).toHaveLength(0);
    await release("s");
    const reports = session.ofType("task_group_report");
    expect(reports).toHaveLength(1);
    expect(reports[0]?.data).toMatchObject({ report: "all", name: "survey", merged: true });
    expect(reports[0]?.data.tasks.map((task) => task.status)).toEqual(["completed", "completed"]);
    expect(session.record.merged).toEqual([expect.objectContaining({ name: "survey", groupId: "group_1" })]);
    expect(session.record.groups?.[0]?.complete).toBe(true);
  });

  it("a group of an earlier turn is sealed: the same name in turn 2 opens a new group", async () => {
    const { session } = makeSession([
      slowTask("north", "n1", { group: "survey" }),
      answer("One."),
      slowTask("east", "e2", { group: "survey" }),
      answer("Two."),
    ]);
    await session.turn("Survey in the background");
    await session.turn("Survey more in the background");
    expect(session.record.groups?.map((group) => [group.groupId, group.turn, group.sealed])).toEqual([
      ["group_1", 1, true],
      ["group_2", 2, true],
    ]);
  });

  it("group_report any: each task reports as it ends; none: nothing reports or merges", async () => {
    const any = makeSession([
      slowTask("north", "n", { group: "survey", group_report: "any" }),
      slowTask("south", "s", { group: "survey" }),
      answer("Surveying."),
    ]);
    await any.session.turn("Survey in the background");
    await any.release("s");
    expect(any.session.ofType("task_group_report").map((event) => event.data.tasks[0]?.name)).toEqual([
      "south",
    ]);
    await any.release("n");
    expect(
      any.session.ofType("task_group_report").map((event) => [event.data.report, event.data.tasks[0]?.name]),
    ).toEqual([
      ["any", "south"],
      ["any", "north"],
    ]);
    expect(any.session.record.merged?.map((merged) => merged.name)).toEqual(["south", "north"]);

    const none = makeSession([
      slowTask("north", "n", { group: "quiet", group_report: "none" }),
      answer("Quiet."),
    ]);
    await none.session.turn("Survey quietly in the background");
    await none.release("n");
    expect(none.session.record.tasks[0]?.status).toBe("completed");
    expect(none.session.ofType("task_group_report")).toHaveLength(0);
    expect(none.session.record.merged ?? []).toHaveLength(0);
    expect(none.session.record.groups?.[0]?.complete).toBe(true);
  });

  it("REPLACE: a later result of the same name supersedes the earlier one in the next turn's context", async () => {
    const { session, client, release } = makeSession([
      slowTask("prices", "p1", { merge_strategy: "REPLACE" }),
      answer("Fetching."),
      slowTask("prices", "p2", { merge_strategy: "REPLACE" }),
      answer("Fetching again."),
      answer("Latest prices."),
    ]);
    await session.turn("Fetch prices in the background");
    await release("p1");
    await session.turn("Fetch prices again in the background");
    await release("p2");
    await session.turn("What are the prices?");
    const merged = getSessionMeta(client.calls[4])["merged_results"] as Record<string, unknown>[];
    expect(merged).toEqual([
      expect.objectContaining({ name: "prices", superseded: true }),
      expect.objectContaining({
        name: "prices",
        tasks: [expect.objectContaining({ result: { report: "report p2" } })],
      }),
    ]);
    expect(merged[0]).not.toHaveProperty("tasks");
  });

  it("HUMAN_GATED: one pending merge per task; only an approved one reaches the next turn", async () => {
    const { session, client, release } = makeSession([
      slowTask("draft", "d1", { merge_strategy: "HUMAN_GATED" }),
      slowTask("memo", "m1", { merge_strategy: "HUMAN_GATED" }),
      answer("Drafting."),
      answer("Next."),
    ]);
    await session.turn("Draft both in the background");
    await release("d1");
    await release("m1");
    expect(session.record.merged ?? []).toHaveLength(0);
    expect(
      session.record.pendingMerges.map((merge) => [merge.mergeId, merge.name, merge.tasks.length]),
    ).toEqual([
      ["merge_task_1", "draft", 1],
      ["merge_task_2", "memo", 1],
    ]);
    expect(session.record.status).toBe("waiting");
    session.decide("merge_task_1", "approve");
    session.decide("merge_task_2", "reject");
    expect(session.record.pendingMerges).toEqual([]);
    await session.turn("Go on");
    const merged = getSessionMeta(client.calls[3])["merged_results"] as { name: string }[];
    expect(merged.map((item) => item.name)).toEqual(["draft"]);
  });

  it("HUMAN_GATED group: its results wait as one batch once the group is done", async () => {
    const { session, release } = makeSession([
      slowTask("a", "a", { group: "batch", merge_strategy: "HUMAN_GATED" }),
      slowTask("b", "b", { group: "batch" }),
      answer("Batching."),
    ]);
    await session.turn("Batch in the background");
    await release("a");
    expect(session.record.pendingMerges).toEqual([]);
    await release("b");
    expect(session.record.pendingMerges).toEqual([
      expect.objectContaining({
        mergeId: "merge_group_1",
        name: "batch",
        groupId: "group_1",
        strategy: "HUMAN_GATED",
      }),
    ]);
    expect(session.record.pendingMerges[0]?.tasks.map((task) => task.name)).toEqual(["a", "b"]);
    session.decide("merge_group_1", "approve");
    expect(session.record.merged).toEqual([
      expect.objectContaining({ name: "batch", mergeId: "merge_group_1" }),
    ]);
  });

  it("limits hold per session: maxConcurrent queues, maxPerRun counts every turn's tasks", async () => {
    const { session, client, release } = makeSession(
      [
        slowTask("one", "1"),
        slowTask("two", "2"),
        answer("Two started."),
        slowTask("three", "3"),
        answer("Refused."),
      ],
      { maxConcurrent: 1, maxPerSession: 2, defaultMergeStrategy: "APPEND" },
    );
    await session.turn("Two reports in the background");
    expect(session.record.tasks.map((task) => task.status)).toEqual(["running", "queued"]);
    await release("1");
    expect(session.record.tasks.map((task) => task.status)).toEqual(["completed", "running"]);
    await release("2");
    await session.turn("A third in the background");
    const refused = JSON.parse(client.calls[4]!.messages.at(-1)!.content) as {
      failure?: { error_code: string };
    };
    expect(refused.failure?.error_code).toBe("task_limit_exceeded");
    expect(session.record.tasks).toHaveLength(2);
    expect(session.record.tasks.every((task) => TERMINAL_TASK_STATUSES.has(task.status))).toBe(true);
  });
});

describe("task runs (ReactPlanner.runTask)", () => {
  it("a subagent task finishes with its ContextCapsule as artifacts.task_result; a pause fails it", async () => {
    const replies: ScriptedReply[] = [call("slow", { id: "x" }), answer("Found x.")];
    const { tools, release } = createTools();
    const planner = new ReactPlanner({
      llm: new ScriptedClient([...replies, call("send", {})]),
      catalog: buildCatalog({ tools }),
      options: { tasks: { enabled: true } },
    });
    const running = planner.runTask(
      { taskId: "task_1", mode: "subagent", query: "Find x" },
      { runId: "run_sub" },
    );
    await release("x");
    const outcome = await running;
    expect(outcome).toMatchObject({
      kind: "finish",
      payload: { artifacts: { task_result: { goal: "Find x", keyFindings: ["Found x."] } } },
    });
    await expect(
      planner.runTask({ taskId: "task_2", mode: "subagent", query: "Send it" }),
    ).rejects.toMatchObject({
      code: "subagent_paused",
    });
  });

  it("a tool task fails with task_timeout past its limit", async () => {
    const { tools } = createTools();
    const planner = new ReactPlanner({ llm: new ScriptedClient([]), catalog: buildCatalog({ tools }) });
    const events: string[] = [];
    await expect(
      planner.runTask(
        { taskId: "task_1", mode: "tool", tool: "slow", toolArgs: { id: "never" } },
        { timeoutMs: 30, onEvent: (event) => events.push(event.type) },
      ),
    ).rejects.toMatchObject({ code: "task_timeout" });
    expect(events[0]).toBe("run_started");
    expect(events.at(-1)).toBe("run_failed");
  });
});
