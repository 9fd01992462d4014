import type { LlmMessage } from "../llm/llm-client.js";
import type { RunState, TrajectoryStep } from "../run/run-state.js";
import type { TrajectorySummary } from "../run/trajectory-summary.js";

/**
 * The messages of a run, built incrementally: the system prompt, the query, then one assistant/user pair
 * per step (the action as canonical JSON, then its observation or failure). Each step is serialized once,
 * when it is appended. Summarization (docs/summarization.md) compacts through `replaceHistory`.
 */
export class TrajectoryMessages {
  private list: LlmMessage[];
  private chars: number;

  constructor(systemPrompt: string, userMessage: string) {
    this.list = [
      { role: "system", content: systemPrompt },
      { role: "user", content: userMessage },
    ];
    this.chars = systemPrompt.length + userMessage.length;
  }

  /** The live list: pass it to the LLM as is (it is only appended to between calls). */
  get messages(): readonly LlmMessage[] {
    return this.list;
  }

  /** Rough prompt size in tokens (four characters each), kept up to date as messages are appended. */
  get estimatedTokens(): number {
    return Math.ceil(this.chars / 4) + this.list.length * 4;
  }

  /**
   * The messages of a run restored from its state (resume): the head, the summary when the history was
   * compacted, then the steps it does not cover. Actions are re-serialized (the verbatim replies are gone).
   */
  static fromState(input: {
    systemPrompt: string;
    userMessage: string;
    state: RunState;
  }): TrajectoryMessages {
    const messages = new TrajectoryMessages(input.systemPrompt, input.userMessage);
    for (const message of getHistoryMessages(input.state)) messages.push(message);
    return messages;
  }

  /** Rough size of the system prompt and the query alone: what no compaction can shrink. */
  get headTokens(): number {
    const [system, user] = this.list;
    return Math.ceil(((system?.content.length ?? 0) + (user?.content.length ?? 0)) / 4) + 8;
  }

  /** `reply`: the LLM's own JSON for this action when it was clean, echoed instead of re-serialized. */
  appendStep(step: TrajectoryStep, reply?: string): void {
    // The pair of `getStepMessages`, pushed without building its array (this runs on every step).
    if (step.note !== true) {
      this.push({ role: "assistant", content: reply ?? stringifyAction(step) });
    }
    this.push({ role: "user", content: stepResultMessage(step) });
  }

  /** The messages plus a repair exchange, without changing the run's own list. */
  withExchange(extra: readonly LlmMessage[]): LlmMessage[] {
    return this.list.concat(extra);
  }

  /**
   * Replaces everything after the system prompt and the query (summarization seam): the summarizer
   * passes a compact digest of the trajectory in place of the step messages.
   */
  replaceHistory(history: readonly LlmMessage[]): void {
    const head = this.list.slice(0, 2);
    this.list = head.concat(history);
    this.chars = this.list.reduce((total, message) => total + message.content.length, 0);
  }

  private push(message: LlmMessage): void {
    this.list.push(message);
    this.chars += message.content.length;
  }
}

/** Everything after the head, from the state: the summary (when compacted), then the uncovered steps. */
export function getHistoryMessages(state: RunState): LlmMessage[] {
  const covered = state.summary?.coveredSteps ?? 0;
  const history: LlmMessage[] = [];
  if (state.summary !== undefined) history.push(createSummaryMessage(state.summary.summary, covered));
  for (let index = covered; index < state.steps.length; index += 1) {
    const step = state.steps[index]!;
    history.push(...getStepMessages(step, step.reply));
  }
  return history;
}

/** A step as messages: the action and its result, or a planner note alone. */
export function getStepMessages(step: TrajectoryStep, reply?: string): LlmMessage[] {
  if (step.note === true) return [{ role: "user", content: stepResultMessage(step) }];
  return [
    { role: "assistant", content: reply ?? stringifyAction(step) },
    { role: "user", content: stepResultMessage(step) },
  ];
}

function stringifyAction(step: TrajectoryStep): string {
  return JSON.stringify({ next_node: step.next_node, args: step.args });
}

/** The message that stands in for the compacted part of the history. */
export function createSummaryMessage(summary: TrajectorySummary, coveredSteps: number): LlmMessage {
  return {
    role: "user",
    content: JSON.stringify({
      trajectory_summary: summary,
      steps_summarized: coveredSteps,
      note: "The earlier steps were summarized to fit the token budget; the steps after it follow in full.",
    }),
  };
}

/** What the LLM reads after a step: `{"observation": …}` or `{"failure": {…}}` (docs/messages-and-prompt.md). */
export function stepResultMessage(step: TrajectoryStep): string {
  if (step.note === true) return JSON.stringify(step.observation ?? null);
  if (step.remarks !== undefined) {
    const result =
      step.failure === undefined ? { observation: step.observation ?? null } : { failure: step.failure };
    return JSON.stringify({ ...result, ...step.remarks });
  }
  if (step.failure !== undefined) return JSON.stringify({ failure: step.failure });
  // What `JSON.stringify({ observation })` gives, without the wrapper object (this runs on every step).
  const json = JSON.stringify(step.observation ?? null) as string | undefined;
  return json === undefined ? "{}" : `{"observation":${json}}`;
}

/** The first user message: the query and the caller's non-secret context, as JSON. */
export function createUserMessage(query: string, contextMeta: Record<string, unknown> | undefined): string {
  return JSON.stringify(contextMeta === undefined ? { query } : { query, context: contextMeta });
}
