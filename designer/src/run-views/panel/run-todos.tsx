import type { ReactElement } from "react";
import type { RunView } from "../../runs/fold/run-view.js";

const MARKS = { pending: "○", in_progress: "◐", completed: "●" } as const;

/** The run's `write_todos` checklist, as the planner last wrote it. */
export function RunTodos({ todos }: { todos: RunView["todos"] }): ReactElement | null {
  if (todos.length === 0) return null;
  const done = todos.filter((todo) => todo.status === "completed").length;
  return (
    <div className="run-todos" data-testid="run-todos">
      <div className="run-subhead">
        Todos{" "}
        <span className="run-muted">
          {done} of {todos.length} done
        </span>
      </div>
      <ul aria-label="Todos">
        {todos.map((todo) => (
          <li key={todo.id} className={`todo todo-${todo.status}`} data-status={todo.status}>
            <span className="todo-mark" aria-hidden>
              {MARKS[todo.status]}
            </span>
            <span className="todo-text">{todo.content}</span>
            <span className="sr-only">({todo.status.replace("_", " ")})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
