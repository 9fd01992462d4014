import type { LlmMessage } from "./llm-client.js";
import type { TrajectoryStep } from "./run-state.js";

/**
 * The messages of a run, built incrementally: the system prompt, the query, then one assistant/user pair
 * per step (the action as canonical JSON, then its observation or failure). Each step is serialized once,
 * when it is appended. The summarizer (issue 4) compacts through `replaceHistory`.
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

  /** `reply`: the LLM's own JSON for this action when it was clean, echoed instead of re-serialized. */
  appendStep(step: TrajectoryStep, reply?: string): void {
    this.push({
      role: "assistant",
      content: reply ?? JSON.stringify({ next_node: step.next_node, args: step.args }),
    });
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

/** What the LLM reads after a step: `{"observation": …}` or `{"failure": {…}}` (seed 001, phase C). */
export function stepResultMessage(step: TrajectoryStep): string {
  if (step.failure !== undefined) return JSON.stringify({ failure: step.failure });
  return JSON.stringify({ observation: step.observation ?? null });
}

/** The first user message: the query and the caller's non-secret context, as JSON. */
export function createUserMessage(query: string, contextMeta: Record<string, unknown> | undefined): string {
  return JSON.stringify(contextMeta === undefined ? { query } : { query, context: contextMeta });
}
