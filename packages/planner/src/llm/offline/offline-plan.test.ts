import type { PlannerAction } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { planOfflineAction } from "./offline-plan.js";
import { OfflineView } from "./offline-view.js";

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  argsSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  ...extra,
});

function view(input: Record<string, unknown>): OfflineView {
  return OfflineView.parse({ query: "q", tools: [], ...input });
}

const next = (input: Record<string, unknown>, refusedAction?: PlannerAction) =>
  planOfflineAction({ view: view(input), ...(refusedAction ? { refusedAction } : {}) }).action;

describe("planOfflineAction", () => {
  it("never picks a disallowed tool", () => {
    const action = next({ tools: [tool("a", { tags: ["x"] }), tool("b")], hints: { disallow_nodes: ["a"] } });
    expect(action.next_node).toBe("b");
  });

  it("orders by edges before catalog order, and survives a cycle", () => {
    const edges = [
      { kind: "order", source: "c", target: "a" },
      { kind: "auto_seq", source: "a", target: "b" },
    ];
    expect(
      next({
        tools: [tool("a", { tags: ["1"] }), tool("b", { tags: ["2"] }), tool("c", { tags: ["3"] })],
        edges,
      }).next_node,
    ).toBe("c");
    const cycle = [...edges, { kind: "order", source: "b", target: "c" }];
    const tools = [tool("a", { tags: ["1"] }), tool("b", { tags: ["2"] }), tool("c", { tags: ["3"] })];
    expect(["a", "b", "c"]).toContain(next({ tools, edges: cycle }).next_node);
  });

  it("treats PenguiFlow parallel_groups hints as groups without a join", () => {
    const tools = [tool("a"), tool("b"), tool("c", { argsSchema: {} })];
    const action = next({ tools, hints: { parallel_groups: [["a", "b"]] } });
    expect(action).toEqual({
      next_node: "parallel",
      args: {
        steps: [
          { node: "a", args: { query: "q" } },
          { node: "b", args: { query: "q" } },
        ],
      },
    });
  });

  it("runs sequential_only members on their own", () => {
    const input = {
      tools: [tool("a"), tool("b")],
      groups: [{ id: "g", members: ["a", "b"] }],
      hints: { sequential_only: ["a"] },
    };
    expect(next(input)).toEqual({ next_node: "a", args: { query: "q" } });
    const steps = [{ next_node: "a", args: {}, observation: {} }];
    expect(next({ ...input, steps })).toEqual({ next_node: "b", args: { query: "q" } });
  });

  it("stops with an honest answer when a tool fails and nothing can stand in", () => {
    const steps = [
      { next_node: "a", args: {}, failure: { node: "a", error_code: "tool_failed", message: "boom" } },
    ];
    const action = next({
      tools: [tool("a", { tags: ["1"] }), tool("b", { tags: ["2"] })],
      edges: [{ kind: "order", source: "a", target: "b" }],
      steps,
    });
    expect(action.next_node).toBe("final_response");
    expect(action.args).toMatchObject({
      answer: expect.stringContaining("a failed: boom"),
      requires_followup: true,
    });
  });

  it("answers at the last iteration the budget allows", () => {
    expect(next({ tools: [tool("a")], iteration: 7, maxIters: 8 }).next_node).toBe("final_response");
  });

  it("repairs a refused call by filling every required field, then gives the tool up", () => {
    const tools = [
      tool("a", {
        tags: ["1"],
        argsSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      }),
      tool("b", { tags: ["2"] }),
    ];
    const lastError = { code: "invalid_args", message: "n: required" };
    const first = next({ tools, lastError }, { next_node: "a", args: {} });
    expect(first).toEqual({ next_node: "a", args: { n: 0 } });
    const second = next({ tools, lastError }, { next_node: "a", args: { n: 0 } });
    expect(second).toEqual({ next_node: "b", args: { query: "q" } });
  });

  it("acts instead of planning again when write_todos was refused", () => {
    const input = {
      tools: [tool("a")],
      todos: { enabled: true, items: [] },
      lastError: { code: "planner_overuse_execute_next_step", message: "act" },
    };
    const planned = next({ ...input, lastError: undefined });
    expect(planned.next_node).toBe("write_todos");
    expect(next(input, planned).next_node).toBe("a");
  });

  it("runs only the branches of a group that have not run", () => {
    const tools = [tool("a"), tool("b"), tool("c")];
    const steps = [{ next_node: "a", args: {}, observation: { ok: true } }];
    const action = next({ tools, groups: [{ id: "g", members: ["a", "b", "c"] }], steps });
    expect(action.args.steps).toEqual([
      { node: "b", args: { query: "q" } },
      { node: "c", args: { query: "q" } },
    ]);
  });
});
