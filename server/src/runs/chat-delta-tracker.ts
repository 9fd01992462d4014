import type { RunEvent } from "@waddle/protocol";

/** What one `chat.completion.chunk` adds to the message. */
export interface ChatDelta {
  content?: string;
  reasoning_content?: string;
}

/**
 * Turns a run's `llm_stream_chunk` events into chat deltas: the answer channel into `content`, the thinking
 * channel (of every LLM call of the run) into `reasoning_content`, calls set apart by a blank line. At the
 * end, `finish` gives what the streamed text lacks of the final answer (all of it when the model streamed
 * none, a tail the stream left out, or the answer again after a streamed answer the run did not keep).
 */
export class ChatDeltaTracker {
  private reasoningText = "";
  private thinkingCall: number | undefined;
  private contentText = "";
  private answerCall: number | undefined;
  /** The text streamed by the latest call that streamed an answer. */
  private lastAnswer = "";

  /** All the thinking seen so far. */
  get reasoning(): string {
    return this.reasoningText;
  }

  /** All the content sent so far. */
  get content(): string {
    return this.contentText;
  }

  onEvent(event: RunEvent): ChatDelta | undefined {
    if (event.type !== "llm_stream_chunk" || event.data.done || event.data.text.length === 0)
      return undefined;
    const { text, channel, action_seq: call } = event.data;
    if (channel === "thinking") {
      const gap = this.reasoningText.length > 0 && call !== this.thinkingCall ? "\n\n" : "";
      this.thinkingCall = call;
      this.reasoningText += gap + text;
      return { reasoning_content: gap + text };
    }
    if (call !== this.answerCall) {
      this.answerCall = call;
      this.lastAnswer = "";
    }
    const gap = this.contentText.length > 0 && this.lastAnswer.length === 0 ? "\n\n" : "";
    this.lastAnswer += text;
    return this.addContent(gap + text);
  }

  /** Content to send after the stream so that the message ends with the run's final answer. */
  finish(answer: string): ChatDelta | undefined {
    if (this.lastAnswer === answer) return undefined;
    if (this.lastAnswer.length > 0 && answer.startsWith(this.lastAnswer)) {
      return this.addContent(answer.slice(this.lastAnswer.length));
    }
    return this.addText(answer);
  }

  /** Text of the server's own (a pause's instructions), set apart from what was streamed. */
  addText(text: string): ChatDelta | undefined {
    if (text.length === 0) return undefined;
    return this.addContent((this.contentText.length > 0 ? "\n\n" : "") + text);
  }

  private addContent(text: string): ChatDelta {
    this.contentText += text;
    return { content: text };
  }
}
