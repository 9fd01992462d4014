import type { PlannerOptionsInput, RunEvent } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildCatalog } from "../catalog/catalog.js";
import { ReactPlanner } from "./react-planner.js";
import { ManualTimers } from "../testing/manual-timers.js";
import { answer, call, createEventLog } from "../testing/run-harness.js";
import { ScriptedClient, type ScriptedCall, type ScriptedReply } from "../testing/scripted-client.js";
import { defineTool } from "../catalog/tool.js";

/** A promise the test settles by hand. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** Lets pending callbacks run (task completions, event forwarding); not a timed wait. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function createTools() {
  const gates: { resolve: () => void }[] = [];
  const started: string[] = [];
  const lookup = defineTool({
    name: "lookup",
    desc: "Looks a topic up",
    args: z.object({ topic: z.string() }),
    out: z.object({ fact: z.string() }),
    run: ({ topic }) => ({ fact: `${topic} is documented` }),
  });
  const slow = defineTool({
    name: "slow",
    desc: "A slow report that finishes when the test says so",
    args: z.object({ id: z.string() }),
    out: z.object({ report: z.string() }),
    run: async ({ id }, context) => {
      started.push(id);
      const gate = deferred();
      gates.push(gate);
      await gate.promise;
      return { report: `report ${id} ${String(context.toolContext["apiKey"] ?? "")}`.trim() };
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
  return {
    tools: [lookup, slow, send],
    gates,
    started,
    releaseAll: () => gates.forEach((gate) => gate.resolve()),
  };
}

function makePlanner(input: {
  replies: ScriptedReply[];
  tasks?: NonNullable<PlannerOptionsInput["tasks"]>;
  taskTimers?: ManualTimers;
}) {
  const tools = createTools();
  const client = new ScriptedClient(input.replies);
  const planner = new ReactPlanner({
    llm: client,
    catalog: buildCatalog({ tools: tools.tools }),
    options: { maxIters: 12, tasks: { enabled: true, spawnRequiresConfirmation: false, ...input.tasks } },
    ...(input.taskTimers === undefined ? {} : { taskTimers: input.taskTimers }),
  });
  return { planner, client, ...tools };
}

const tool = (name: string, id: string, extra: Record<string, unknown> = {}) =>
  call("task.tool", { name, tool: "slow", tool_args: { id }, ...extra });
const lastMessage = (entry: ScriptedCall | undefined) =>
  JSON.parse(entry?.messages.at(-1)?.content ?? "null") as Record<string, unknown>;
const types = (events: readonly RunEvent[]) => events.map((event) => event.type);

describe("background tasks: task.subagent and task.tool", () => {
  it("a subagent runs the query on a forked planner and hands back a ContextCapsule, not its transcript", async () => {
    const isSub = (entry: ScriptedCall) => entry.messages[1]?.content.includes("Research solar") === true;
    const reply: ScriptedReply = (entry) => {
      const steps = (entry.plannerView as { steps: unknown[] }).steps.length;
      if (isSub(entry)) {
        return steps === 0
          ? call("lookup", { topic: "solar" })
          : answer("Solar is cheap. Storage is the bottleneck.");
      }
      return steps === 0
        ? call("task.subagent", { name: "Research", query: "Research solar", retain_turn: true })
        : answer("Done.");
    };
    const { planner, client } = makePlanner({ replies: Array<ScriptedReply>(6).fill(reply) });
    const log = createEventLog();
    const result = await planner.run("Brief me on solar", { onEvent: log.onEvent });
    expect(result).toMatchObject({ kind: "finish", reason: "answer_complete" });
    const parentCalls = client.calls.filter((entry) => !isSub(entry));
    expect(parentCalls).toHaveLength(2);
    const merged = lastMessage(parentCalls[1]) as {
      task_results: { tasks: { status: string; result: { goal: string; keyFindings: string[] } }[] };
    };
    expect(merged.task_results.tasks[0]).toMatchObject({
      status: "completed",
      result: { goal: "Research solar", keyFindings: ["Solar is cheap.", "Storage is the bottleneck."] },
    });
    expect(parentCalls[1]?.messages.some((message) => message.content.includes('"next_node":"lookup"'))).toBe(
      false,
    );
    expect(types(log.events)).toEqual(expect.arrayContaining(["task_spawned", "task_update"]));
    expect(log.ofType("task_update").map((event) => event.data.status)).toEqual(["running", "completed"]);
    expect(log.ofType("llm_call").filter((event) => event.data.purpose === "subagent")).toHaveLength(2);
    expect(result.kind === "finish" ? result.metadata.llmCalls : 0).toBe(4);
  });

  it("APPEND: a task.tool result arrives as a note before the next LLM call", async () => {
    const { planner, client, releaseAll } = makePlanner({
      replies: [
        tool("report", "a"),
        async () => {
          releaseAll();
          await settle();
          return call("lookup", { topic: "x" });
        },
        answer("ok"),
      ],
    });
    await planner.run("x");
    const spawned = lastMessage(client.calls[1]) as { observation: Record<string, unknown> };
    expect(spawned.observation).toMatchObject({ taskId: "task_1", status: "running", retain_turn: false });
    const messages = client.calls[2]!.messages;
    const note = JSON.parse(messages.at(-1)!.content) as { task_results: Record<string, unknown> };
    expect(note.task_results).toMatchObject({
      name: "report",
      strategy: "APPEND",
      tasks: [{ taskId: "task_1", status: "completed", result: { report: "report a" } }],
    });
    // The result arrived while the model called lookup: it is added after that step, as a user message.
    expect(messages.at(-3)?.content).toBe(JSON.stringify(call("lookup", { topic: "x" })));
    expect(messages.at(-1)?.role).toBe("user");
  });

  it("REPLACE supersedes the earlier result of the same name", async () => {
    const { planner, client, gates } = makePlanner({
      replies: [
        tool("report", "a", { merge_strategy: "REPLACE", retain_turn: true }),
        tool("report", "b", { merge_strategy: "REPLACE", retain_turn: true }),
        answer("ok"),
      ],
    });
    const running = planner.run("x");
    await until(() => gates.length === 1);
    gates[0]!.resolve();
    await until(() => gates.length === 2);
    gates[1]!.resolve();
    await running;
    const contents = client.calls[2]!.messages.map((message) => message.content);
    expect(contents.filter((content) => content.includes('"superseded":true'))).toHaveLength(1);
    expect(contents.filter((content) => content.includes("report b"))).toHaveLength(1);
    expect(contents.some((content) => content.includes("report a"))).toBe(false);
  });

  it("HUMAN_GATED results pause for a person: approve merges them, reject discards them", async () => {
    for (const decision of ["approve", "reject"] as const) {
      const { planner, client, gates } = makePlanner({
        replies: [tool("report", "a", { merge_strategy: "HUMAN_GATED", retain_turn: true }), answer("ok")],
      });
      const running = planner.run("x");
      await until(() => gates.length === 1);
      gates[0]!.resolve();
      const pause = await running;
      if (pause.kind !== "pause") throw new Error("expected a pause");
      expect(pause).toMatchObject({
        reason: "approval_required",
        payload: {
          tool: "task_results",
          why: "human_gated_merge",
          tasks: [{ result: { report: "report a" } }],
        },
      });
      expect(client.calls).toHaveLength(1);
      await planner.resume(pause.resumeToken, { decision });
      const note = lastMessage(client.calls[1]) as { task_results: Record<string, unknown> };
      if (decision === "approve")
        expect(note.task_results).toMatchObject({ tasks: [{ status: "completed" }] });
      else expect(note.task_results).toMatchObject({ discarded: true });
    }
  });
});

describe("background tasks: groups", () => {
  const group = (id: string, extra: Record<string, unknown> = {}) =>
    tool(`part ${id}`, id, { group: "g", ...extra });

  it.each([
    ["all", 1],
    ["any", 3],
    ["none", 0],
  ] as const)(
    "group_report %s gives %i report(s); retain_turn on the last task seals and waits",
    async (report, reports) => {
      const { planner, client, gates } = makePlanner({
        replies: [
          group("a", { group_report: report }),
          group("b"),
          group("c", { group_sealed: true, retain_turn: true }),
          answer("ok"),
        ],
      });
      const log = createEventLog();
      const running = planner.run("x", { onEvent: log.onEvent });
      await until(() => gates.length === 3);
      for (const gate of gates) gate.resolve();
      await running;
      const reportEvents = log.ofType("task_group_report");
      expect(reportEvents).toHaveLength(reports);
      if (report === "all")
        expect(reportEvents[0]?.data.tasks.map((task) => task.status)).toEqual([
          "completed",
          "completed",
          "completed",
        ]);
      const notes = client.calls[3]!.messages.map((message) => message.content).filter((content) =>
        content.startsWith('{"task_results"'),
      );
      // all: one combined merge; any: one per task; none: the retained wait's poll.
      expect(notes).toHaveLength(report === "any" ? 3 : 1);
      expect(notes.join("")).toContain("report c");
      expect(new Set(log.ofType("task_spawned").map((event) => event.data.groupId))).toEqual(
        new Set(["group_1"]),
      );
    },
  );
});

describe("background tasks: confirmation, limits and lifetime", () => {
  it("spawnRequiresConfirmation pauses before the spawn: approve, edit or reject", async () => {
    const { planner, client, releaseAll } = makePlanner({
      replies: [tool("report", "a", { retain_turn: true }), answer("ok"), tool("report", "b"), answer("ok")],
      tasks: { spawnRequiresConfirmation: true },
    });
    const pause = await planner.run("x");
    if (pause.kind !== "pause") throw new Error("expected a pause");
    expect(pause.payload).toMatchObject({ tool: "task.tool", why: "spawn_requires_confirmation" });
    const log = createEventLog();
    const resumed = planner.resume(pause.resumeToken, {
      decision: "edit",
      args: { name: "report", tool: "slow", tool_args: { id: "edited" }, retain_turn: true },
      onEvent: log.onEvent,
    });
    await until(() => log.ofType("task_spawned").length === 1);
    releaseAll();
    await resumed;
    expect(log.ofType("task_spawned")[0]?.data).toMatchObject({ name: "report", tool: "slow" });
    expect(JSON.stringify(client.calls[1]?.messages.at(-1))).toContain("report edited");
    const second = await planner.run("y");
    if (second.kind !== "pause") throw new Error("expected a pause");
    await planner.resume(second.resumeToken, { decision: "reject" });
    expect(lastMessage(client.calls[3])).toMatchObject({ failure: { error_code: "rejected_by_user" } });
  });

  it("tells the model to ask for confirmation only while spawnRequiresConfirmation is unset", () => {
    const prompt = (tasks: NonNullable<PlannerOptionsInput["tasks"]>) =>
      new ReactPlanner({ llm: new ScriptedClient(), catalog: buildCatalog(), options: { tasks } })
        .systemPrompt;
    expect(prompt({ enabled: true })).toMatch(
      /asking them to confirm the task and whether you should keep the turn/,
    );
    expect(prompt({ enabled: true, spawnRequiresConfirmation: false })).not.toMatch(/confirm the task/);
    expect(prompt({ enabled: true, spawnRequiresConfirmation: true })).not.toMatch(/confirm the task/);
    expect(prompt({ enabled: false })).not.toMatch(/task\.subagent/);
  });

  it("limits tasks per run and at once; refuses tools that need approval or bad args", async () => {
    const { planner, client, releaseAll } = makePlanner({
      replies: [
        tool("one", "1"),
        tool("two", "2"),
        tool("three", "3"),
        call("task.tool", { name: "gated", tool: "send", tool_args: {} }),
        call("task.tool", { name: "bad", tool: "slow", tool_args: { id: 3 } }),
        answer("ok"),
      ],
      tasks: { maxConcurrent: 1, maxPerRun: 2 },
    });
    const running = planner.run("x");
    await running;
    releaseAll();
    const observed = client.calls.slice(1).map((entry) => lastMessage(entry));
    expect(observed[0]).toMatchObject({ observation: { status: "running" } });
    expect(observed[1]).toMatchObject({ observation: { status: "queued" } });
    expect(observed[2]).toMatchObject({ failure: { error_code: "task_limit_exceeded" } });
    expect(observed[3]).toMatchObject({ failure: { error_code: "approval_in_background" } });
    expect(observed[4]).toMatchObject({ failure: { error_code: "invalid_args" } });
  });

  it("stops a task at its time limit", async () => {
    const timers = new ManualTimers();
    const { planner, client } = makePlanner({
      replies: [tool("report", "a", { retain_turn: true }), answer("ok")],
      tasks: { timeoutS: 5 },
      taskTimers: timers,
    });
    const running = planner.run("x");
    await until(() => timers.pending.size === 2);
    timers.fire(5_000);
    await running;
    expect(lastMessage(client.calls[1])).toMatchObject({
      task_results: { tasks: [{ status: "timed_out", error: { code: "task_timeout" } }] },
    });
  });

  it("cancelling the run cancels its tasks; finishing or pausing cancels unfinished ones first", async () => {
    const controller = new AbortController();
    const cancelled = makePlanner({
      replies: [
        tool("report", "a"),
        () => {
          controller.abort();
          return answer("never");
        },
      ],
    });
    const log = createEventLog();
    const result = await cancelled.planner.run("x", { onEvent: log.onEvent, signal: controller.signal });
    expect(result).toMatchObject({ kind: "finish", reason: "cancelled" });
    expect(log.ofType("task_update").map((event) => event.data.status)).toEqual(["running", "cancelled"]);
    expect(log.events.at(-1)?.type).toBe("run_finished");

    const finishing = makePlanner({ replies: [tool("report", "a"), answer("done")] });
    const finishLog = createEventLog();
    await finishing.planner.run("x", { onEvent: finishLog.onEvent });
    expect(types(finishLog.events).slice(-2)).toEqual(["task_update", "run_finished"]);
    expect(finishLog.ofType("task_update").at(-1)?.data.status).toBe("cancelled");

    const pausing = makePlanner({ replies: [tool("report", "a"), call("send")] });
    const pause = await pausing.planner.run("x");
    expect(pause).toMatchObject({
      kind: "pause",
      payload: { tool: "send", cancelledTasks: [{ taskId: "task_1" }] },
    });
  });

  it("redacts toolContext secrets from task event previews", async () => {
    const { planner, gates } = makePlanner({
      replies: [tool("report", "a", { retain_turn: true }), answer("ok")],
    });
    const log = createEventLog();
    const running = planner.run("x", { onEvent: log.onEvent, toolContext: { apiKey: "sk-very-secret-123" } });
    await until(() => gates.length === 1);
    gates[0]!.resolve();
    await running;
    const text = JSON.stringify(log.events);
    expect(text).toContain("report a");
    expect(text).not.toContain("sk-very-secret-123");
  });
});

/** Waits (by yielding, not by time) until a condition holds. */
async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 1_000; attempt += 1) {
    if (condition()) return;
    await settle();
  }
  throw new Error("the condition never held");
}
