import type { PlannerAction } from "@waddle/protocol";
import { z } from "zod";
import type { CatalogTool } from "../../catalog/catalog.js";
import { compactJsonSchema } from "../../catalog/compact-json-schema.js";
import { redactText } from "../../secrets/redact-text.js";
import type { RunContext } from "../run-context.js";
import { PlannerError } from "../../errors/planner-error.js";
import { createPlanSummary } from "../../trajectory/reflection.js";
import type { ActionSource } from "@waddle/protocol";
import { createFailure } from "../../run/run-state.js";
import { scrubSecrets } from "../../secrets/secret-scrubber.js";
import {
  applyWriteTodos,
  createTodoState,
  getTodosUpdatedEventData,
  WRITE_TODOS_ARGS_JSON_SCHEMA,
  WRITE_TODOS_DESCRIPTION,
  WriteTodosError,
} from "../../todos/write-todos.js";
import { WRITE_TODOS_TOOL_NAME } from "../../run/todo-state.js";

const ACK_JSON_SCHEMA = {
  type: "object",
  properties: {
    ok: { type: "boolean" },
    revision: { type: "integer" },
    todoCount: { type: "integer" },
    inProgress: { type: ["string", "null"] },
  },
  required: ["ok", "revision", "todoCount", "inProgress"],
};

/**
 * The built-in `write_todos` tool (docs/write-todos.md), in the catalog when `todos.enabled`: the prompt shows its
 * schema like any tool's, but the loop handles it itself (`runWriteTodos`). Its args schema accepts any
 * object here so that invalid args come back as a tool error (`invalid_write_todos_args`) rather
 * than as a repair; `applyWriteTodos` validates them.
 */
export function createWriteTodosTool(): CatalogTool {
  return {
    name: WRITE_TODOS_TOOL_NAME,
    desc: WRITE_TODOS_DESCRIPTION,
    sideEffects: "pure",
    tags: ["planning"],
    authScopes: [],
    extra: { builtin: true },
    argsSchema: compactJsonSchema(WRITE_TODOS_ARGS_JSON_SCHEMA),
    outSchema: ACK_JSON_SCHEMA,
    args: z.record(z.string(), z.unknown()),
    out: z.unknown(),
    requiresApproval: false,
    autoSeq: false,
    autoSeqExecute: false,
    run: () =>
      Promise.reject(
        new PlannerError(
          "invalid_action",
          "write_todos only updates the plan: call it on its own, not in parallel or as a task.",
        ),
      ),
    origin: "module",
  };
}

/**
 * Applies a `write_todos` call before any normal execution: replaces the checklist, records the
 * acknowledgement as the step's observation and emits `todos_updated` and `reasoning {phase: "plan"}`.
 * Invalid args and the overuse guard become a tool failure (`invalid_write_todos_args`,
 * `planner_overuse_execute_next_step`) the model reads and acts on.
 */
export function runWriteTodos(
  run: RunContext,
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
