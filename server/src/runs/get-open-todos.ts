import type { WaddleStore } from "../store/waddle-store.js";

/** The todos a run left open (its last `todos_updated`, less the completed ones), for the next turn. */
export async function getOpenTodos(
  store: WaddleStore,
  runId: string,
): Promise<{ content: string; status: string }[]> {
  const events = await store.listEvents(runId);
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index]!;
    if (event.type !== "todos_updated") continue;
    return event.data.todos
      .filter((todo) => todo.status !== "completed")
      .map((todo) => ({ content: todo.content, status: todo.status }));
  }
  return [];
}
