import { StreamRedactor } from "@waddle/planner";
import type { RunEvent } from "@waddle/protocol";
import type { SecretRedactor } from "./secret-redactor.js";

type StreamChunk = Extract<RunEvent, { type: "llm_stream_chunk" }>;

/**
 * Redacts a run's `llm_stream_chunk` events with the planner's `StreamRedactor`, one per stream
 * (`action_seq` and channel): redacting each chunk alone would miss a secret split across two of them. A
 * chunk marked `done` releases what its stream held back. Joined, the chunks read as the redacted text.
 */
export class StreamChunkRedactor {
  private readonly streams = new Map<string, StreamRedactor>();

  constructor(private readonly redactor: SecretRedactor) {}

  /** The chunk with its text redacted, after what this stream held back and minus what it holds back now. */
  redactChunk(event: StreamChunk): StreamChunk {
    if (this.redactor.isEmpty) return event;
    const key = `${event.data.action_seq}:${event.data.channel}`;
    let stream = this.streams.get(key);
    if (stream === undefined) {
      stream = new StreamRedactor(this.redactor);
      this.streams.set(key, stream);
    }
    let text = stream.push(event.data.text);
    if (event.data.done) {
      text += stream.flush();
      this.streams.delete(key);
    }
    return text === event.data.text ? event : { ...event, data: { ...event.data, text } };
  }
}
