import { z } from "zod";
import { PlannerError } from "../errors/planner-error.js";
import { TodoItem, type TodoState } from "../run/todo-state.js";

/** At most this many consecutive iterations may only update the plan (the overuse guard, docs/write-todos.md). */
export const MAX_CONSECUTIVE_PLANNER_ONLY = 2;

/** Args of `write_todos`: the whole checklist each time (replace semantics), with the limits of docs/write-todos.md. */
export const WriteTodosArgs = z
  .object({
    todos: z.array(TodoItem).min(1).max(8),
    focus: z.string().max(40).optional(),
    note: z.string().max(200).optional(),
  })
  .refine((args) => new Set(args.todos.map((todo) => todo.id)).size === args.todos.length, {
    message: "todo ids must be unique",
    path: ["todos"],
  });
export type WriteTodosArgs = z.infer<typeof WriteTodosArgs>;

export const WRITE_TODOS_DESCRIPTION =
  "Record your plan as a short checklist. Send the complete list every time (it replaces the previous " +
  "one): 1-8 todos, each {id, content, status: pending | in_progress | completed}, optional focus and " +
  "note. Use it for tasks of two or more meaningful actions, before the first expensive tool, and " +
  "update statuses as you go; do not rewrite an unchanged list. It does no work by itself: after " +
  "planning, call the next tool.";

/** The JSON Schema of the args, for the catalog and the prompt. */
export const WRITE_TODOS_ARGS_JSON_SCHEMA: Record<string, unknown> = z.toJSONSchema(WriteTodosArgs, {
  io: "input",
});

/** What the tool returns to the LLM. */
export interface WriteTodosAck {
  ok: true;
  revision: number;
  todoCount: number;
  /** Id of the first in-progress todo, or null. */
  inProgress: string | null;
}

export type WriteTodosErrorCode = "invalid_write_todos_args" | "planner_overuse_execute_next_step";

/** A refused `write_todos` call: its `code` becomes the tool failure's `error_code`. */
export class WriteTodosError extends PlannerError<WriteTodosErrorCode> {
  constructor(code: WriteTodosErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details === undefined ? {} : { details });
    this.name = "WriteTodosError";
  }
}

export function createTodoState(): TodoState {
  return { revision: 0, todos: [], consecutivePlannerOnly: 0 };
}

/**
 * Applies one `write_todos` call: validates the args, replaces the checklist and counts a planner-only
 * iteration. Throws `WriteTodosError` with `invalid_write_todos_args`, or with
 * `planner_overuse_execute_next_step` once two planner-only iterations ran in a row.
 */
export function applyWriteTodos(state: TodoState, args: unknown): { state: TodoState; ack: WriteTodosAck } {
  if (state.consecutivePlannerOnly >= MAX_CONSECUTIVE_PLANNER_ONLY) {
    throw new WriteTodosError(
      "planner_overuse_execute_next_step",
      `The plan was updated ${state.consecutivePlannerOnly} times in a row without acting: execute the ` +
        "next step of the plan (call a tool) instead of calling write_todos again.",
      { consecutivePlannerOnly: state.consecutivePlannerOnly },
    );
  }
  const parsed = WriteTodosArgs.safeParse(args);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.join("."),
      message: issue.message,
    }));
    throw new WriteTodosError(
      "invalid_write_todos_args",
      "write_todos args are invalid: " +
        issues.map((issue) => `${issue.path || "args"}: ${issue.message}`).join("; ") +
        ". Send {todos: [{id, content, status}], focus?, note?} with 1-8 todos.",
      { issues },
    );
  }
  const next: TodoState = {
    revision: state.revision + 1,
    todos: parsed.data.todos.map((todo) => ({ ...todo })),
    consecutivePlannerOnly: state.consecutivePlannerOnly + 1,
  };
  if (parsed.data.focus !== undefined) next.focus = parsed.data.focus;
  if (parsed.data.note !== undefined) next.note = parsed.data.note;
  const inProgress = next.todos.find((todo) => todo.status === "in_progress")?.id ?? null;
  return {
    state: next,
    ack: { ok: true, revision: next.revision, todoCount: next.todos.length, inProgress },
  };
}

/** Records an iteration that did more than plan (a tool, a parallel step, a task, an answer). */
export function applyNonPlannerIteration(state: TodoState): TodoState {
  return state.consecutivePlannerOnly === 0 ? state : { ...state, consecutivePlannerOnly: 0 };
}

/** The `todos_updated` event data for a state. */
export function getTodosUpdatedEventData(state: TodoState): {
  revision: number;
  todos: TodoItem[];
  focus?: string;
  note?: string;
} {
  const data: { revision: number; todos: TodoItem[]; focus?: string; note?: string } = {
    revision: state.revision,
    todos: state.todos.map((todo) => ({ ...todo })),
  };
  if (state.focus !== undefined) data.focus = state.focus;
  if (state.note !== undefined) data.note = state.note;
  return data;
}
