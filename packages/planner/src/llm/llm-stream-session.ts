import { AnswerStreamExtractor } from "./answer-stream-extractor.js";
import type { LlmChunk, LlmResult } from "./llm-client.js";
import type { RunEventEmitter } from "../run/run-event-emitter.js";
import { createTextRedactor, StreamRedactor } from "../secrets/stream-redactor.js";

type Channel = "answer" | "thinking";

/**
 * The events of one LLM call's stream: content deltas go through `AnswerStreamExtractor` into answer
 * chunks, reasoning deltas into thinking chunks, each channel closed with one `done: true` chunk; secrets
 * are redacted even when split across deltas. One object per call, with a single bound `onChunk`.
 */
export class LlmStreamSession {
  private readonly streamAnswer: boolean;
  /** Created with the first content: a call that streams nothing, or a tool call, never needs one. */
  private extractor: AnswerStreamExtractor | undefined;
  private readonly redactors: Record<Channel, StreamRedactor> | undefined;
  private sawContent = false;
  private thinking = false;
  private answering = false;
  /** Set by `complete` or `abort`: a later `abort` has nothing left to close. */
  private closed = false;

  constructor(
    private readonly events: RunEventEmitter,
    private readonly actionSeq: number,
    options: { streamAnswer: boolean; secrets: ReadonlySet<string> },
  ) {
    this.streamAnswer = options.streamAnswer;
    // Redactors only when there is something to hide: most runs pass text straight through.
    const redactor = options.secrets.size === 0 ? undefined : createTextRedactor(options.secrets);
    this.redactors =
      redactor === undefined
        ? undefined
        : { answer: new StreamRedactor(redactor), thinking: new StreamRedactor(redactor) };
  }

  /** Passed to the client as `onChunk`. */
  readonly onChunk = (chunk: LlmChunk): void => {
    if (chunk.reasoning !== undefined && chunk.reasoning.length > 0) {
      this.thinking = true;
      this.emit("thinking", chunk.reasoning, false);
    }
    if (chunk.content !== undefined && chunk.content.length > 0) this.showContent(chunk.content);
  };

  /** True when the reply was streamed as a terminal action. */
  get streamedFinish(): boolean {
    return this.extractor?.isFinishAction === true;
  }

  /** After the reply: shows what a non-streaming client returned, then closes the open channels. */
  complete(result: LlmResult): void {
    if (!this.thinking && result.reasoning !== undefined && result.reasoning.length > 0) {
      this.thinking = true;
      this.emit("thinking", result.reasoning, false);
    }
    // A reply that came whole (offline and scripted models, non-streaming clients): the extractor only
    // ever shows text of a terminal action, so a reply that cannot be one skips its character scan.
    if (!this.sawContent && result.content.length > 0 && mayBeTerminal(result.content)) {
      this.showContent(result.content);
    }
    const tail = this.extractor?.end() ?? "";
    if (tail.length > 0) {
      this.answering = true;
      this.emit("answer", tail, false);
    }
    this.closed = true;
    if (this.thinking) this.emit("thinking", "", true);
    if (this.answering || this.streamedFinish) this.emit("answer", "", true);
  }

  /** After a failed call (e.g. a stream cut off): closes the channels it opened, once. */
  abort(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.thinking) this.emit("thinking", "", true);
    if (this.answering) this.emit("answer", "", true);
  }

  private showContent(content: string): void {
    this.sawContent = true;
    if (!this.streamAnswer) return;
    this.extractor ??= new AnswerStreamExtractor();
    const text = this.extractor.feed(content);
    if (text.length > 0) {
      this.answering = true;
      this.emit("answer", text, false);
    }
  }

  private emit(channel: Channel, text: string, done: boolean): void {
    const redactor = this.redactors?.[channel];
    const shown = redactor === undefined ? (done ? "" : text) : done ? redactor.flush() : redactor.push(text);
    // Text held back as a possible secret's beginning goes out just before the closing chunk.
    if (done && shown.length > 0) this.chunk(channel, shown, false);
    if (done || shown.length > 0) this.chunk(channel, done ? "" : shown, done);
  }

  private chunk(channel: Channel, text: string, done: boolean): void {
    this.events.emit("llm_stream_chunk", { text, done, phase: channel, channel, action_seq: this.actionSeq });
  }
}

/**
 * False when `AnswerStreamExtractor` could not find a terminal action in `content`: it needs
 * `next_node` to be `"final_response"` or a literal `null`, and a model could only spell either another
 * way with a backslash escape (`"final\\u005fresponse"`), so a reply with none of the three is a tool call
 * or another opcode.
 */
function mayBeTerminal(content: string): boolean {
  return content.includes("final_response") || content.includes("null") || content.includes("\\");
}
