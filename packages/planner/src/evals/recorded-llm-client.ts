import type { RecordedLlmReply } from "@waddle/protocol";
import { PlannerError } from "../errors/planner-error.js";
import type { LlmClient, LlmCompleteOptions, LlmResult } from "../llm/llm-client.js";

/**
 * An LLM client that replays a run's recorded replies in order, whatever it is asked: a test case with
 * `llm: "recorded"` runs the agent's tools and checks against the model's decisions of the recorded run.
 * A call past the last reply fails with `script_exhausted` (the agent now asks more than it did).
 */
export class RecordedLlmClient implements LlmClient {
  readonly provider = "recorded";
  readonly model: string;
  private next = 0;

  constructor(
    private readonly replies: readonly RecordedLlmReply[],
    options: { model?: string } = {},
  ) {
    this.model = options.model ?? "recorded";
  }

  /** How many replies were served. */
  get served(): number {
    return this.next;
  }

  complete(options: LlmCompleteOptions): Promise<LlmResult> {
    options.signal?.throwIfAborted();
    const reply = this.replies[this.next];
    if (reply === undefined) {
      return Promise.reject(
        new PlannerError(
          "script_exhausted",
          `The recorded run answered ${this.replies.length} model call(s); this run asks for call ${this.next + 1}. ` +
            `Record the case again, or run it with llm "live".`,
          { details: { recordedReplies: this.replies.length } },
        ),
      );
    }
    this.next += 1;
    if (options.stream && options.onChunk) options.onChunk({ content: reply.content });
    return Promise.resolve({
      content: reply.content,
      usage: { promptTokens: reply.promptTokens ?? 0, completionTokens: reply.completionTokens ?? 0 },
      model: this.model,
      costUsd: 0,
      finishReason: "stop",
    });
  }
}
