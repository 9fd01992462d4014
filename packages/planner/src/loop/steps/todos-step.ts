import type { ActionSource, PlannerAction } from "@waddle/protocol";
import { redactText } from "../../secrets/redact-text.js";
import type { RunContext } from "../run-context.js";
import { createPlanSummary } from "../../trajectory/reflection.js";
import { createFailure } from "../../run/run-state.js";
import { scrubSecrets } from "../../secrets/secret-scrubber.js";
import { WRITE_TODOS_TOOL_NAME } from "../../run/todo-state.js";
import {
  applyWriteTodos,
  createTodoState,
  getTodosUpdatedEventData,
  WriteTodosError,
} from "../../todos/write-todos.js";

/**
 * Applies a `write_todos` call before any normal execution: replaces the checklist, records the
 * acknowledgement as the step's observation and emits `todos_updated` and `reasoning {phase: "plan"}`.
 * Invalid args and the overuse guard become a tool failure (`invalid_write_todos_args`,
 * `planner_overuse_execute_next_step`) the model reads and acts on.
 */
export function runWriteTodos(
  run: Pick<RunContext, "config" | "state" | "events" | "secrets" | "recordStep">,
  input: { action: PlannerAction; source: ActionSource; reply?: string | undefined },
): void {
  const { state } = run;
  const startedAt = run.config.clock();
  try {
    const { state: next, ack } = applyWriteTodos(state.todos ?? createTodoState(), input.action.args);
    state.todos = next;
    run.recordStep({ ...input, observation: ack, startedAt });
    if (!run.events.enabled) {
      run.events.skip();
      run.events.skip();
      return;
    }
    run.events.emit("todos_updated", scrubSecrets(getTodosUpdatedEventData(next), run.secrets));
    const summary = redactText(createPlanSummary(next.todos, next.focus), run.secrets);
    run.events.emit("reasoning", { phase: "plan", summary }, state.steps.length - 1);
  } catch (error) {
    if (!(error instanceof WriteTodosError)) throw error;
    const failure = createFailure({
      node: WRITE_TODOS_TOOL_NAME,
      args: input.action.args,
      errorCode: error.code,
      message: error.message,
      suggestion:
        error.code === "planner_overuse_execute_next_step"
          ? "Execute the next step of your plan now: call a tool or answer."
          : "Send {todos: [{id, content, status}], focus?, note?} with 1-8 todos.",
    });
    run.recordStep({ ...input, failure, startedAt });
  }
}
