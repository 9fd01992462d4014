import { z } from "zod";

/** The built-in tool that writes the run's plan (docs/write-todos.md). */
export const WRITE_TODOS_TOOL_NAME = "write_todos";

export const TodoStatus = z.enum(["pending", "in_progress", "completed"]);
export type TodoStatus = z.infer<typeof TodoStatus>;

export const TodoItem = z.object({
  id: z.string().min(1).max(40),
  content: z.string().min(1).max(140),
  status: TodoStatus,
});
export type TodoItem = z.infer<typeof TodoItem>;

/** The run's plan: the latest checklist and how many iterations in a row did nothing but plan. */
export interface TodoState {
  /** 0 before the first `write_todos`; +1 per accepted update. */
  revision: number;
  todos: TodoItem[];
  focus?: string;
  note?: string;
  consecutivePlannerOnly: number;
}
