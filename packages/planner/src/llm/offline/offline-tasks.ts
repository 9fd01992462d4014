import type { OfflineDecision } from "./offline-decision.js";
import type { OfflineView } from "./offline-view.js";

const TASK_NODES = new Set(["task.subagent", "task.tool"]);
/** Words that ask for work in the background. */
const BACKGROUND_WORDS = /\b(?:in the background|background|meanwhile|while i wait)\b/i;
const MAX_RESULT_CHARS = 400;

interface TaskEntry {
  name?: string;
  status?: string;
  result?: unknown;
  error?: { message?: string };
}

/**
 * The offline model's background tasks (agents with `tasks.enabled`): a query asking for background work
 * ("… in the background", "meanwhile …") spawns a `task.subagent` on the rest of the query and answers
 * that it started — in a session it goes on after the turn; in a one-off run it keeps the turn
 * (`retain_turn`) and answers from its result. A session's turn that finds results merged since the last
 * turn (`contextMeta.session.merged_results`) answers from them. Undefined: plan as usual.
 */
export function planOfflineTask(view: OfflineView): OfflineDecision | undefined {
  if (!view.tasksEnabled) return undefined;
  const session = getSession(view);
  const spawned = view.steps.find((step) => TASK_NODES.has(step.next_node));
  const noted = view.steps.filter((step) => step.next_node === "task_results");
  if (spawned !== undefined) {
    if (noted.length > 0) {
      return answer(
        describeNotes(noted.map((step) => step.observation)),
        "The background task is done: answering from its results.",
      );
    }
    if (spawned.failure !== undefined) {
      return answer(
        `I could not start the background task: ${spawned.failure.message}`,
        "The background task was refused: saying why.",
      );
    }
    const observation = (spawned.observation ?? {}) as { taskId?: string };
    const name = String(spawned.args["name"] ?? "background task");
    return answer(
      `I started "${name}" in the background (${observation.taskId ?? "a task"}). It goes on after this answer; ` +
        "ask me again in your next message and I will answer from its results.",
      "The task runs in the background: answering now, its results reach the next turn.",
    );
  }
  if (BACKGROUND_WORDS.test(view.query)) {
    const query = view.query.replace(BACKGROUND_WORDS, " ").replace(/\s+/g, " ").trim() || view.query;
    const name = query.split(/\s+/).slice(0, 6).join(" ").slice(0, 80) || "background work";
    return {
      action: {
        next_node: "task.subagent",
        args: {
          name,
          query,
          // The agent's `tasks.defaultMergeStrategy` decides how its result merges.
          // Without a session there is no later turn: keep this one until the task is done.
          ...(session === undefined ? { retain_turn: true } : {}),
        },
      },
      rationale: "The request asks for background work: spawning a sub-agent task for it.",
    };
  }
  const fresh = getFreshMerged(session);
  if (fresh.length > 0 && view.steps.length === 0) {
    return answer(
      describeNotes(fresh.map((merged) => ({ task_results: merged }))),
      "Background results arrived since the last turn: answering from them.",
    );
  }
  return undefined;
}

function answer(text: string, rationale: string): OfflineDecision {
  return { action: { next_node: "final_response", args: { answer: text } }, rationale };
}

function getSession(view: OfflineView): Record<string, unknown> | undefined {
  const session = view.context?.["session"];
  return session !== null && typeof session === "object" ? (session as Record<string, unknown>) : undefined;
}

/** Results merged after the newest earlier turn (not yet answered from). */
function getFreshMerged(session: Record<string, unknown> | undefined): Record<string, unknown>[] {
  if (session === undefined) return [];
  const turns = Array.isArray(session["turns"]) ? (session["turns"] as { turn?: number }[]) : [];
  const lastTurn = turns.at(-1)?.turn ?? 0;
  const merged = Array.isArray(session["merged_results"])
    ? (session["merged_results"] as Record<string, unknown>[])
    : [];
  return merged.filter(
    (item) =>
      typeof item["after_turn"] === "number" && item["after_turn"] >= lastTurn && item["superseded"] !== true,
  );
}

/** `{task_results: {name, tasks: [...]}}` notes as plain sentences. */
function describeNotes(observations: readonly unknown[]): string {
  const lines: string[] = [];
  for (const observation of observations) {
    const results = (observation as { task_results?: { name?: string; held?: boolean; tasks?: TaskEntry[] } })
      ?.task_results;
    if (results === undefined) continue;
    if (results.held === true) {
      lines.push(`The results of "${results.name ?? "a task"}" wait for a person's approval.`);
      continue;
    }
    for (const task of results.tasks ?? []) {
      const name = task.name ?? results.name ?? "a task";
      if (task.error?.message !== undefined)
        lines.push(`"${name}" ${task.status ?? "failed"}: ${task.error.message}`);
      else lines.push(`From the background task "${name}": ${describeResult(task.result)}`);
    }
  }
  return lines.length > 0 ? lines.join("\n") : "The background task ended without results.";
}

/** A ContextCapsule's findings, an answer-like field, or a short JSON. */
function describeResult(result: unknown): string {
  if (typeof result === "string") return clip(result);
  if (result !== null && typeof result === "object") {
    const record = result as Record<string, unknown>;
    const findings = record["keyFindings"];
    if (Array.isArray(findings) && findings.length > 0) return clip(findings.map(String).join(" "));
    for (const key of ["answer", "summary", "result", "text", "message"]) {
      if (typeof record[key] === "string") return clip(record[key]);
    }
  }
  return clip(JSON.stringify(result) ?? "no result");
}

function clip(text: string): string {
  return text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS)}…` : text;
}
