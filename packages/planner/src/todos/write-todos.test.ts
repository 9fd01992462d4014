import { describe, expect, it } from "vitest";
import { isPlannerError } from "../errors/planner-error.js";
import {
  applyNonPlannerIteration,
  applyWriteTodos,
  createTodoState,
  getTodosUpdatedEventData,
  WRITE_TODOS_ARGS_JSON_SCHEMA,
  WriteTodosArgs,
  WriteTodosError,
} from "./write-todos.js";
import { WRITE_TODOS_TOOL_NAME } from "../run/todo-state.js";

const todo = (id: string, status: "pending" | "in_progress" | "completed" = "pending") => ({
  id,
  content: `do ${id}`,
  status,
});

function expectCode(run: () => unknown, code: string): WriteTodosError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WriteTodosError);
    expect(isPlannerError(error, code)).toBe(true);
    return error as WriteTodosError;
  }
  throw new Error(`expected ${code}`);
}

describe("WriteTodosArgs limits (docs/write-todos.md)", () => {
  const valid = { todos: [todo("a")] };

  it("accepts 1 to 8 todos", () => {
    expect(WriteTodosArgs.safeParse(valid).success).toBe(true);
    const eight = Array.from({ length: 8 }, (_, index) => todo(`t${index}`));
    expect(WriteTodosArgs.safeParse({ todos: eight }).success).toBe(true);
    expect(WriteTodosArgs.safeParse({ todos: [] }).success).toBe(false);
    expect(WriteTodosArgs.safeParse({ todos: [...eight, todo("t9")] }).success).toBe(false);
  });

  it("bounds ids, contents, focus and note", () => {
    const check = (args: unknown) => WriteTodosArgs.safeParse(args).success;
    expect(check({ todos: [{ ...todo("a"), id: "x".repeat(40) }] })).toBe(true);
    expect(check({ todos: [{ ...todo("a"), id: "x".repeat(41) }] })).toBe(false);
    expect(check({ todos: [{ ...todo("a"), id: "" }] })).toBe(false);
    expect(check({ todos: [{ ...todo("a"), content: "x".repeat(140) }] })).toBe(true);
    expect(check({ todos: [{ ...todo("a"), content: "x".repeat(141) }] })).toBe(false);
    expect(check({ todos: [{ ...todo("a"), content: "" }] })).toBe(false);
    expect(check({ todos: [{ ...todo("a"), status: "done" }] })).toBe(false);
    expect(check({ ...valid, focus: "x".repeat(40), note: "x".repeat(200) })).toBe(true);
    expect(check({ ...valid, focus: "x".repeat(41) })).toBe(false);
    expect(check({ ...valid, note: "x".repeat(201) })).toBe(false);
  });

  it("refuses duplicate ids", () => {
    expect(WriteTodosArgs.safeParse({ todos: [todo("a"), todo("a")] }).success).toBe(false);
  });

  it("publishes a catalog-ready JSON Schema", () => {
    expect(WRITE_TODOS_TOOL_NAME).toBe("write_todos");
    expect(WRITE_TODOS_ARGS_JSON_SCHEMA).toMatchObject({
      type: "object",
      required: ["todos"],
      properties: { todos: { type: "array", minItems: 1, maxItems: 8 }, focus: { maxLength: 40 } },
    });
  });
});

describe("applyWriteTodos", () => {
  it("replaces the checklist and acknowledges it", () => {
    const first = applyWriteTodos(createTodoState(), {
      todos: [todo("a", "in_progress"), todo("b")],
      focus: "a",
      note: "start",
    });
    expect(first.ack).toEqual({ ok: true, revision: 1, todoCount: 2, inProgress: "a" });
    const second = applyWriteTodos(applyNonPlannerIteration(first.state), {
      todos: [todo("c", "completed")],
    });
    expect(second.ack).toEqual({ ok: true, revision: 2, todoCount: 1, inProgress: null });
    expect(second.state.todos.map((item) => item.id)).toEqual(["c"]);
    // Replace semantics: what the new snapshot omits is gone.
    expect(second.state.focus).toBeUndefined();
    expect(getTodosUpdatedEventData(second.state)).toEqual({ revision: 2, todos: [todo("c", "completed")] });
  });

  it("does not alias the caller's args or the previous state", () => {
    const args = { todos: [todo("a")] };
    const initial = createTodoState();
    const { state } = applyWriteTodos(initial, args);
    args.todos[0]!.content = "changed";
    expect(state.todos[0]!.content).toBe("do a");
    expect(initial).toEqual(createTodoState());
  });

  it("reports invalid args with the issues and a fix", () => {
    const error = expectCode(
      () => applyWriteTodos(createTodoState(), { todos: [] }),
      "invalid_write_todos_args",
    );
    expect(error.message).toContain("todos");
    expect(error.toJSON().details).toHaveProperty("issues");
  });

  it("allows two planner-only iterations in a row, then asks to execute the next step", () => {
    let state = createTodoState();
    state = applyWriteTodos(state, { todos: [todo("a")] }).state;
    state = applyWriteTodos(state, { todos: [todo("a", "in_progress")] }).state;
    const error = expectCode(
      () => applyWriteTodos(state, { todos: [todo("a")] }),
      "planner_overuse_execute_next_step",
    );
    expect(error.message).toContain("call a tool");
    // A real step resets the streak.
    state = applyNonPlannerIteration(state);
    expect(applyWriteTodos(state, { todos: [todo("a", "completed")] }).ack.revision).toBe(3);
  });

  it("round-trips through JSON (paused runs)", () => {
    const { state } = applyWriteTodos(createTodoState(), { todos: [todo("a")], focus: "f" });
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });
});
