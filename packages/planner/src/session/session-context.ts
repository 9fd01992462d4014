import type { TrajectorySummary } from "../run/trajectory-summary.js";

/** One earlier turn of a session as the model sees it. */
export interface ConversationTurn {
  turn: number;
  query: string;
  /** Null when the turn ended without an answer (failed, cancelled). */
  answer: string | null;
  status?: string;
}

/** A background task's result merged into the session (APPEND, REPLACE, or an approved HUMAN_GATED). */
export interface MergedResult {
  name: string;
  strategy: "APPEND" | "REPLACE" | "HUMAN_GATED";
  groupId?: string;
  /** The turn after which it was merged. */
  afterTurn: number;
  tasks: { taskId: string; name: string; status: string; result?: unknown; error?: unknown }[];
}

/**
 * What a turn knows of its session: the earlier turns (the oldest perhaps folded into `summary`), the task
 * results merged since, and the todos still open. It reaches the model as the planner's `contextMeta`
 * (`{session: …}` beside the query), never as part of the stored query.
 */
export interface SessionContext {
  /** Turns after `summary`'s, oldest first. */
  turns: readonly ConversationTurn[];
  /** The older turns, compacted (`compactConversation`). */
  summary?: { throughTurn: number; state: TrajectorySummary };
  merged: readonly MergedResult[];
  openTodos: readonly { content: string; status: string }[];
}

/**
 * The `contextMeta` of a turn: `{session: {summary?, turns, merged_results?, open_todos?}}`. REPLACE
 * results supersede earlier results of the same name (only the latest of a name is shown in full).
 */
export function getSessionContextMeta(context: SessionContext): Record<string, unknown> {
  const latestByName = new Map<string, number>();
  context.merged.forEach((merged, index) => {
    if (merged.strategy === "REPLACE") latestByName.set(merged.name, index);
  });
  const merged = context.merged.map((result, index) => {
    const replacedBy = latestByName.get(result.name);
    const superseded = replacedBy !== undefined && replacedBy > index;
    return {
      name: result.name,
      strategy: result.strategy,
      after_turn: result.afterTurn,
      ...(result.groupId === undefined ? {} : { group_id: result.groupId }),
      ...(superseded ? { superseded: true } : { tasks: result.tasks }),
    };
  });
  return {
    session: {
      ...(context.summary
        ? { summary_of_turns: { through_turn: context.summary.throughTurn, ...context.summary.state } }
        : {}),
      turns: context.turns.map((turn) => ({
        turn: turn.turn,
        user: turn.query,
        assistant: turn.answer ?? `(no answer: the turn ${turn.status ?? "ended"})`,
      })),
      ...(merged.length > 0 ? { merged_results: merged } : {}),
      ...(context.openTodos.length > 0 ? { open_todos: context.openTodos } : {}),
    },
  };
}
