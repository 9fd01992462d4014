import type { AgentSpec, PlannerFinishResult } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import type { PlannerView } from "../run/planner-view.js";
import type { ReactPlanner } from "./react-planner.js";
import { loadExampleAgent } from "../testing/load-example-agent.js";
import { answer, call, createEventLog, createScriptedPlanner } from "../testing/run-harness.js";
import { scriptedReply } from "../testing/scripted-client.js";

const triage = loadExampleAgent("support-triage");
const withTodos: AgentSpec = { ...triage, planner: { ...triage.planner, todos: { enabled: true } } };
const plan = (status: "pending" | "in_progress" | "completed" = "pending") =>
  call("write_todos", {
    todos: [
      { id: "triage", content: "Triage the request", status },
      { id: "answer", content: "Answer the user", status: "pending" },
    ],
    focus: "triage",
  });

function finished(result: Awaited<ReturnType<ReactPlanner["run"]>>): PlannerFinishResult {
  if (result.kind !== "finish") throw new Error(`expected a finish, got a pause (${result.reason})`);
  return result;
}

function lastObservation(content: string | undefined): Record<string, unknown> {
  return JSON.parse(content ?? "{}") as Record<string, unknown>;
}

describe("write_todos in the loop (docs/write-todos.md)", () => {
  it("is a built-in tool only when todos are enabled", () => {
    const on = createScriptedPlanner(withTodos, []).planner;
    const off = createScriptedPlanner(triage, []).planner;
    expect(on.toolNames).toContain("write_todos");
    expect(on.systemPrompt).toMatch(/write_todos — Record your plan/);
    expect(off.toolNames).not.toContain("write_todos");
  });

  it("replaces the checklist, acknowledges it and emits todos_updated and [Plan]", async () => {
    const { planner, client } = createScriptedPlanner(withTodos, [
      plan(),
      call("triage", { text: "charged twice" }),
      plan("completed"),
      answer("done"),
    ]);
    const log = createEventLog();
    const result = finished(await planner.run("charged twice", { onEvent: log.onEvent }));
    expect(lastObservation(client.calls[1]?.messages.at(-1)?.content)).toEqual({
      observation: { ok: true, revision: 1, todoCount: 2, inProgress: null },
    });
    expect(log.ofType("todos_updated").map((event) => event.data.revision)).toEqual([1, 2]);
    expect(log.ofType("todos_updated")[1]?.data.todos[0]).toEqual({
      id: "triage",
      content: "Triage the request",
      status: "completed",
    });
    const plans = log.ofType("reasoning").filter((event) => event.data.phase === "plan");
    expect(plans.map((event) => event.data.summary)).toEqual([
      "0/2 done · next: Triage the request · focus: triage",
      "1/2 done · next: Answer the user · focus: triage",
    ]);
    const view = client.calls[3]?.plannerView as PlannerView;
    expect(view.todos.items.map((todo) => todo.status)).toEqual(["completed", "pending"]);
    // Planning is not a tool call: no tool events, no hop.
    expect(log.ofType("tool_start").map((event) => event.data.tool)).toEqual(["triage"]);
    expect(result.metadata.steps).toBe(3);
  });

  it("returns the limits as a tool error and the loop goes on", async () => {
    const tooMany = Array.from({ length: 9 }, (_, index) => ({
      id: `t${index}`,
      content: "x",
      status: "pending",
    }));
    const { planner, client } = createScriptedPlanner(withTodos, [
      call("write_todos", { todos: tooMany }),
      call("write_todos", { todos: [{ id: "a".repeat(41), content: "x", status: "pending" }] }),
      answer("ok"),
    ]);
    finished(await planner.run("x"));
    for (const index of [1, 2]) {
      const seen = lastObservation(client.calls[index]?.messages.at(-1)?.content) as {
        failure: { error_code: string; message: string };
      };
      expect(seen.failure.error_code).toBe("invalid_write_todos_args");
    }
    expect(client.calls.map((entry) => entry.purpose)).toEqual(["plan", "plan", "plan"]);
  });

  it("refuses a third planner-only iteration with planner_overuse_execute_next_step", async () => {
    const { planner, client } = createScriptedPlanner(withTodos, [
      plan(),
      plan("in_progress"),
      plan("completed"),
      call("triage", { text: "x" }),
      plan("completed"),
      answer("ok"),
    ]);
    const log = createEventLog();
    finished(await planner.run("x", { onEvent: log.onEvent }));
    const third = lastObservation(client.calls[3]?.messages.at(-1)?.content) as {
      failure: { error_code: string };
    };
    expect(third.failure.error_code).toBe("planner_overuse_execute_next_step");
    // After a real step, planning is allowed again.
    expect(lastObservation(client.calls[5]?.messages.at(-1)?.content)).toMatchObject({
      observation: { ok: true, revision: 3 },
    });
    expect(log.ofType("todos_updated").map((event) => event.data.revision)).toEqual([1, 2, 3]);
  });

  it("keeps the todos through a pause", async () => {
    const email = loadExampleAgent("email-approval");
    const spec = {
      ...email,
      edges: [],
      hints: { ...email.hints, ordering_hints: [] },
      planner: { ...email.planner, todos: { enabled: true } },
    };
    const { planner } = createScriptedPlanner(spec, [
      plan(),
      call("send_email", { to: "a@example.com", subject: "s", body: "b" }),
      plan("completed"),
      answer("ok"),
    ]);
    const pause = await planner.run("x");
    if (pause.kind !== "pause") throw new Error("expected a pause");
    const log = createEventLog();
    finished(await planner.resume(pause.resumeToken, { decision: "approve", onEvent: log.onEvent }));
    expect(log.ofType("todos_updated").map((event) => event.data.revision)).toEqual([2]);
  });
});

describe("reasoning visibility: [Act], [Obs], [Reflect]", () => {
  it("summarizes calls and results, and reflects in one short sentence from native reasoning", async () => {
    const thinking =
      "The user was charged twice, so triage comes first. Then I will look up the refund policy and explain it in detail.";
    const { planner } = createScriptedPlanner(triage, [
      scriptedReply(call("triage", { text: "charged twice" }), { reasoning: thinking, chunkSize: 16 }),
      answer("ok"),
    ]);
    const log = createEventLog();
    await planner.run("x", { onEvent: log.onEvent });
    const reasoning = log.ofType("reasoning").map((event) => event.data);
    expect(reasoning).toEqual([
      { phase: "reflect", summary: "The user was charged twice, so triage comes first." },
      { phase: "act", summary: "calling triage with {text}" },
      { phase: "obs", summary: expect.stringMatching(/^triage → \{/) as unknown },
    ]);
    const raw = log
      .ofType("llm_stream_chunk")
      .filter((event) => event.data.channel === "thinking")
      .map((event) => event.data.text)
      .join("");
    expect(raw).toBe(thinking);
    expect(JSON.stringify(reasoning)).not.toContain("refund policy");
  });

  it("goes on without native reasoning: no reflection, no retry", async () => {
    const { planner, client } = createScriptedPlanner(triage, [answer("ok")]);
    const log = createEventLog();
    finished(await planner.run("x", { onEvent: log.onEvent }));
    expect(client.calls).toHaveLength(1);
    expect(log.ofType("reasoning")).toEqual([]);
    expect(log.ofType("llm_stream_chunk").some((event) => event.data.channel === "thinking")).toBe(false);
  });
});
