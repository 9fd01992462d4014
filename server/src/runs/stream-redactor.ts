import type { RunEvent } from "@waddle/protocol";
import type { SecretRedactor } from "../secrets/secret-redactor.js";

type StreamChunk = Extract<RunEvent, { type: "llm_stream_chunk" }>;

/**
 * Redacts streamed text that arrives in pieces. Redacting each `llm_stream_chunk` alone misses a secret
 * split across two of them (an answer that quotes a key, streamed a few characters at a time), so each
 * stream holds back the end of its text that could start a secret and sends it with the next piece, or
 * redacted whole with the piece marked `done`. Joined, the pieces read as the redacted text.
 */
export class StreamRedactor {
  /** Held-back text by stream (`action_seq` and channel). */
  private readonly pending = new Map<string, string>();

  constructor(private readonly redactor: SecretRedactor) {}

  /** The chunk with its text redacted, after what this stream held back and minus what it holds back now. */
  redactChunk(event: StreamChunk): StreamChunk {
    if (this.redactor.isEmpty) return event;
    const key = `${event.data.action_seq}:${event.data.channel}`;
    const text = (this.pending.get(key) ?? "") + event.data.text;
    const held = event.data.done ? 0 : this.redactor.getPartialSecretLength(text);
    const ready = text.slice(0, text.length - held);
    if (held > 0) this.pending.set(key, text.slice(ready.length));
    else this.pending.delete(key);
    const redacted = this.redactor.redactText(ready);
    return redacted === event.data.text ? event : { ...event, data: { ...event.data, text: redacted } };
  }
}
