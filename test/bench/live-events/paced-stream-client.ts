import { setTimeout as sleep } from "node:timers/promises";
import type { LlmClient, LlmCompleteOptions, LlmResult } from "@waddle/planner";

export interface PacedStream {
  /** Answer chunks per second. */
  rate: number;
  /** Answer chunks in all. */
  count: number;
  /** Streaming starts once this resolves (when every client has subscribed). */
  gate: Promise<void>;
}

const PREFIX = '{"next_node":"final_response","args":{"answer":"';
const SUFFIX = '"}}';

/**
 * A model that streams a final answer at a fixed rate, as a fast provider streams tokens: one content
 * delta per answer word, each of which the planner turns into one `llm_stream_chunk` event. Deltas are
 * paced against the clock from the start (a timer tick sends every delta that is due), so the rate holds
 * on average even when timers fire late.
 */
export class PacedStreamClient implements LlmClient {
  readonly provider = "bench";
  readonly model = "paced-stream";
  /** When the first and last answer delta were handed to the planner (performance.now()). */
  firstDeltaAt = 0;
  lastDeltaAt = 0;

  constructor(private readonly stream: PacedStream) {}

  async complete(options: LlmCompleteOptions): Promise<LlmResult> {
    await this.stream.gate;
    const onChunk = options.stream === true ? options.onChunk : undefined;
    const words: string[] = [];
    onChunk?.({ content: PREFIX });
    const start = performance.now();
    this.firstDeltaAt = start;
    let sent = 0;
    while (sent < this.stream.count) {
      options.signal?.throwIfAborted();
      const due = Math.min(
        this.stream.count,
        Math.floor(((performance.now() - start) * this.stream.rate) / 1000) + 1,
      );
      for (; sent < due; sent += 1) {
        const word = `w${sent} `;
        words.push(word);
        onChunk?.({ content: word });
      }
      this.lastDeltaAt = performance.now();
      if (sent < this.stream.count) await sleep(1);
    }
    onChunk?.({ content: SUFFIX });
    return { content: `${PREFIX}${words.join("")}${SUFFIX}` };
  }
}
