import type { JsonPatchOperation } from "@ag-ui/core";
import type { RunEventData } from "@waddle/protocol";

/** One `write_todos` item, as `todos_updated` carries it. */
export type TodoItem = RunEventData<"todos_updated">["todos"][number];

/** Where the `write_todos` list lives in the AG-UI state: `state.todos`. */
export const TODOS_PATH = "/todos";

/**
 * The JSON Patch (RFC 6902) that turns the state's `todos` list `before` into `after`, item by item: a
 * changed item is replaced in place, new items are appended, dropped ones removed from the end, so that a
 * client redraws only what moved. Empty when nothing changed.
 */
export function getTodosPatch(before: readonly TodoItem[], after: readonly TodoItem[]): JsonPatchOperation[] {
  const patch: JsonPatchOperation[] = [];
  const shared = Math.min(before.length, after.length);
  for (let index = 0; index < shared; index++) {
    if (!isSameTodo(before[index]!, after[index]!)) {
      patch.push({ op: "replace", path: `${TODOS_PATH}/${index}`, value: toPlainTodo(after[index]!) });
    }
  }
  for (let index = shared; index < after.length; index++) {
    patch.push({ op: "add", path: `${TODOS_PATH}/-`, value: toPlainTodo(after[index]!) });
  }
  // From the end, so that each index is still the item it names when it is removed.
  for (let index = before.length - 1; index >= after.length; index--) {
    patch.push({ op: "remove", path: `${TODOS_PATH}/${index}` });
  }
  return patch;
}

/** The item's three fields only: an event's loose object may carry more, which is not the state's. */
export function toPlainTodo(todo: TodoItem): TodoItem {
  return { id: todo.id, content: todo.content, status: todo.status };
}

function isSameTodo(a: TodoItem, b: TodoItem): boolean {
  return a.id === b.id && a.content === b.content && a.status === b.status;
}
