import { ContextCapsule } from "@waddle/protocol";
import { clipText, getValueDigest } from "../util/compact-value.js";
import type { TodoItem } from "../run/todo-state.js";

/** One step of the subagent's run, as much as the capsule needs. */
export interface CapsuleStep {
  next_node: string;
  observation?: unknown;
  failure?: { error_code: string; message: string; suggestion?: string };
}

/** The subagent's final answer: text, or the final payload with its artifacts and sources. */
export type CapsuleAnswer =
  | string
  | {
      answer: string;
      artifacts?: Readonly<Record<string, unknown>>;
      sources?: readonly Readonly<Record<string, unknown>>[];
    };

export interface BuildContextCapsuleOptions {
  goal: string;
  answer: CapsuleAnswer;
  steps: readonly CapsuleStep[];
  /** The subagent's plan, when it kept one: open items become next actions. */
  todos?: { revision: number; todos: readonly TodoItem[]; focus?: string };
}

/** Hard bounds: a capsule is at most about 8 kB of JSON whatever the run produced. */
export const CAPSULE_LIMITS = {
  goalChars: 300,
  findings: 5,
  findingChars: 240,
  artifacts: 8,
  refChars: 200,
  summaryChars: 200,
  nextActions: 5,
  actionChars: 160,
} as const;

/**
 * What a subagent hands back instead of its transcript (docs/background-tasks.md): the goal, key findings from its answer
 * (or, without one, from its latest results), artifacts (payload artifacts, sources, tool results),
 * next actions (open todos, unrecovered failures) and the plan snapshot. Bounded by `CAPSULE_LIMITS`.
 */
export function buildContextCapsule(options: BuildContextCapsuleOptions): ContextCapsule {
  const answer = typeof options.answer === "string" ? { answer: options.answer } : options.answer;
  const capsule: ContextCapsule = {
    goal: clipText(oneLine(options.goal), CAPSULE_LIMITS.goalChars),
    keyFindings: getFindings(answer.answer, options.steps),
    artifacts: getArtifacts(answer, options.steps),
  };
  const nextActions = getNextActions(options);
  if (nextActions.length > 0) capsule.nextActions = nextActions;
  if (options.todos !== undefined && options.todos.todos.length > 0) {
    const { revision, todos, focus } = options.todos;
    capsule.planSnapshot = {
      revision,
      todos: todos.map((todo) => ({ ...todo })),
      ...(focus ? { focus } : {}),
    };
  }
  return ContextCapsule.parse(capsule);
}

function getFindings(answer: string, steps: readonly CapsuleStep[]): string[] {
  const sentences = answer
    .split(/\n+|(?<=[.!?])\s+/)
    .map((part) => oneLine(part.replace(/^[-*•\d.)\s]+/, "")))
    .filter((part) => part.length > 0);
  if (sentences.length > 0) {
    return sentences
      .slice(0, CAPSULE_LIMITS.findings)
      .map((part) => clipText(part, CAPSULE_LIMITS.findingChars));
  }
  return getLatestResults(steps)
    .slice(0, CAPSULE_LIMITS.findings)
    .map(({ step }) =>
      clipText(`${step.next_node}: ${getValueDigest(step.observation, 400)}`, CAPSULE_LIMITS.findingChars),
    );
}

function getArtifacts(
  answer: Exclude<CapsuleAnswer, string>,
  steps: readonly CapsuleStep[],
): ContextCapsule["artifacts"] {
  const artifacts: ContextCapsule["artifacts"] = [];
  const add = (type: string, ref: string, summary: string): void => {
    artifacts.push({
      type,
      ref: clipText(ref, CAPSULE_LIMITS.refChars),
      summary: clipText(oneLine(summary), CAPSULE_LIMITS.summaryChars),
    });
  };
  for (const [key, value] of Object.entries(answer.artifacts ?? {}))
    add("artifact", key, getValueDigest(value, 400));
  for (const [index, source] of (answer.sources ?? []).entries()) {
    const ref = [source["url"], source["id"], source["title"]].find((item) => typeof item === "string");
    const summary = [source["title"], source["snippet"], source["summary"]].find(
      (item) => typeof item === "string",
    );
    add(
      "source",
      (ref as string | undefined) ?? `source ${index + 1}`,
      (summary as string | undefined) ?? getValueDigest(source, 400),
    );
  }
  for (const { step, index } of getLatestResults(steps)) {
    add("tool_result", `${step.next_node}#${index + 1}`, getValueDigest(step.observation, 400));
  }
  return artifacts.slice(0, CAPSULE_LIMITS.artifacts);
}

function getNextActions(options: BuildContextCapsuleOptions): string[] {
  const actions: string[] = [];
  for (const todo of options.todos?.todos ?? []) {
    if (todo.status !== "completed") actions.push(todo.content);
  }
  const recovered = new Set<string>();
  for (let index = options.steps.length - 1; index >= 0; index -= 1) {
    const step = options.steps[index]!;
    if (step.failure === undefined) recovered.add(step.next_node);
    else if (!recovered.has(step.next_node)) {
      recovered.add(step.next_node);
      actions.push(`retry ${step.next_node}: ${step.failure.suggestion ?? step.failure.message}`);
    }
  }
  return actions
    .slice(0, CAPSULE_LIMITS.nextActions)
    .map((action) => clipText(oneLine(action), CAPSULE_LIMITS.actionChars));
}

/** The latest successful step of each tool, most recent first. */
function getLatestResults(steps: readonly CapsuleStep[]): { step: CapsuleStep; index: number }[] {
  const seen = new Set<string>();
  const results: { step: CapsuleStep; index: number }[] = [];
  for (let index = steps.length - 1; index >= 0; index -= 1) {
    const step = steps[index]!;
    if (step.failure !== undefined || step.observation === undefined || seen.has(step.next_node)) continue;
    seen.add(step.next_node);
    results.push({ step, index });
  }
  return results;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
