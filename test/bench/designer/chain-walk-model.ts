import { setTimeout as sleep } from "node:timers/promises";
import type { LlmClient, LlmCompleteOptions, LlmResult } from "@waddle/planner";

export interface ChainWalk {
  /** The tools to call, one per LLM call, in order; then the answer. */
  tools: readonly string[];
  answer: string;
  /** The first call waits for this (the page subscribes first). */
  gate: Promise<void>;
  /** How long each call takes; 0 (the default): an instant answer, so the run is one burst. */
  latencyMs?: number;
}

/**
 * A model that walks a list of tools, one action per call, and then answers: with no latency, faster
 * than any real model could drive a run. Each reply streams a line of thinking first (a `llm_stream_chunk` on the thinking
 * channel), as reasoning models do; the action itself comes whole.
 */
export class ChainWalkModel implements LlmClient {
  readonly provider = "bench";
  readonly model = "chain-walk";
  private calls = 0;

  constructor(private readonly walk: ChainWalk) {}

  async complete(options: LlmCompleteOptions): Promise<LlmResult> {
    if (this.calls === 0) await this.walk.gate;
    if ((this.walk.latencyMs ?? 0) > 0) await sleep(this.walk.latencyMs);
    const index = this.calls;
    this.calls += 1;
    const tool = this.walk.tools[index];
    if (options.stream === true) options.onChunk?.({ reasoning: `Step ${index}: ` });
    const content =
      tool === undefined
        ? JSON.stringify({ next_node: "final_response", args: { answer: this.walk.answer } })
        : JSON.stringify({ next_node: tool, args: { text: `input ${index}` } });
    return { content, usage: { promptTokens: 120, completionTokens: 12 } };
  }
}
