import { z } from "zod";
import type { CatalogTool } from "../catalog/catalog.js";
import { compactJsonSchema } from "../catalog/compact-json-schema.js";
import { PlannerError } from "../errors/planner-error.js";
import { WRITE_TODOS_TOOL_NAME } from "../run/todo-state.js";
import { WRITE_TODOS_ARGS_JSON_SCHEMA, WRITE_TODOS_DESCRIPTION } from "./write-todos.js";

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
