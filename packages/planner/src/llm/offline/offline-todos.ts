import type { PlannerAction } from "@waddle/protocol";
import type { OfflineGraph, PlanUnit } from "./offline-graph.js";
import type { RunProgress } from "./offline-progress.js";
import type { OfflineView } from "./offline-view.js";
import { WRITE_TODOS_TOOL_NAME } from "../../run/todo-state.js";

/** A unit on the plan's path and where it stands. */
export interface PathEntry {
  unit: PlanUnit;
  state: "done" | "failed" | "active" | "pending";
}

interface Todo {
  id: string;
  content: string;
  status: "pending" | "in_progress" | "completed";
}

const MAX_TODOS = 8;
const MAX_CONTENT = 140;

/**
 * A `write_todos` call when todos are enabled and the list on record no longer matches the plan: the
 * whole plan at the start, statuses as it goes. Never twice in a row, and only when the iterations left
 * still cover the remaining steps and the answer.
 */
export function getTodosAction(input: {
  view: OfflineView;
  graph: OfflineGraph;
  progress: RunProgress;
  path: readonly PathEntry[];
  finishing: boolean;
  remaining: number;
}): PlannerAction | undefined {
  const { view, progress, path, finishing, remaining } = input;
  if (!view.todos.enabled || progress.lastStepWasTodos || path.length === 0) return undefined;
  const open = path.filter((entry) => entry.state === "active" || entry.state === "pending").length;
  // This call, the open steps, and the final answer must all fit.
  if (remaining < open + 2) return undefined;
  const todos = getTodos(path, { graph: input.graph, finishing });
  if (sameTodos(todos, view.todos.items)) return undefined;
  // Without a plan on record, only plan at the start; mid-run, only update a plan that exists.
  if (view.todos.items.length === 0 && progress.toolSteps > 0) return undefined;
  const focus = todos.find((todo) => todo.status === "in_progress")?.id;
  return { next_node: WRITE_TODOS_TOOL_NAME, args: focus === undefined ? { todos } : { todos, focus } };
}

function getTodos(path: readonly PathEntry[], context: { graph: OfflineGraph; finishing: boolean }): Todo[] {
  const steps = path.slice(0, MAX_TODOS - 1).map((entry, index): Todo => ({
    id: `step-${index + 1}`,
    content: clip(`${describeUnit(entry.unit, context.graph)}${entry.state === "failed" ? " (failed)" : ""}`),
    status: entry.state === "active" ? "in_progress" : entry.state === "pending" ? "pending" : "completed",
  }));
  const answer: Todo = {
    id: "answer",
    content: "Answer the user from the results",
    status: context.finishing ? "completed" : "pending",
  };
  return [...steps, answer];
}

function describeUnit(unit: PlanUnit, graph: OfflineGraph): string {
  if (unit.kind === "group") {
    const join = unit.join === undefined ? "" : `, then ${unit.join.tool}`;
    return `Run ${unit.members.join(", ")} in parallel${join}`;
  }
  const desc = graph.tools.get(unit.tool)?.desc.split(/(?<=[.!?])\s/)[0] ?? "";
  return desc === "" ? `Run ${unit.tool}` : `${unit.tool}: ${desc}`;
}

function sameTodos(
  left: readonly Todo[],
  right: readonly { id: string; content: string; status: string }[],
): boolean {
  return (
    left.length === right.length &&
    left.every((todo, index) => {
      const other = right[index];
      return (
        other !== undefined &&
        other.id === todo.id &&
        other.content === todo.content &&
        other.status === todo.status
      );
    })
  );
}

function clip(text: string): string {
  return text.length > MAX_CONTENT ? `${text.slice(0, MAX_CONTENT - 1)}…` : text;
}
