import type { ChatDelta } from "../../../runs/chat-delta-tracker.js";
import type { MessageItem, OutputItem, ReasoningItem } from "./response-object.js";

/** One event of a streamed response: its type, and its fields besides `type` and `sequence_number`. */
export type ResponseStreamEvent = { type: string } & Record<string, unknown>;

/**
 * Turns an agent's streamed deltas into the Responses API's event sequence, as the `openai` client's
 * `responses.stream()` accumulates it: the thinking as `reasoning` items (`response.reasoning_text.delta`),
 * the answer as one `message` item (`response.output_item.added`, `response.content_part.added`,
 * `response.output_text.delta`, then the `.done` events). Each event is numbered (`sequence_number`). The
 * caller sends `response.created` first and `response.completed` (or `failed`) last, with `output`.
 */
export class ResponseEventWriter {
  private sequence = 0;
  private readonly items: OutputItem[] = [];
  private open: { item: OutputItem; index: number } | undefined;

  constructor(
    private readonly runId: string,
    private readonly send: (event: ResponseStreamEvent) => void,
  ) {}

  /** The output so far (items still open included). */
  get output(): readonly OutputItem[] {
    return this.items;
  }

  /** The answer text of the message item so far. */
  get text(): string {
    return this.items
      .filter((item): item is MessageItem => item.type === "message")
      .map((item) => item.content[0]?.text ?? "")
      .join("");
  }

  /** Sends a lifecycle event (`response.created`, `response.completed`…) with its sequence number. */
  emit(event: ResponseStreamEvent): void {
    this.send({ ...event, sequence_number: this.sequence });
    this.sequence += 1;
  }

  add(delta: ChatDelta): void {
    if (delta.reasoning_content) this.addReasoning(delta.reasoning_content);
    if (delta.content) this.addText(delta.content);
  }

  /** Closes what is open; the answer's message item is completed with `answer` when none streamed it. */
  finish(answer: string | undefined, status: MessageItem["status"] = "completed"): void {
    if (this.open?.item.type === "reasoning") this.closeOpen("completed");
    if (answer !== undefined && this.text !== answer) {
      const streamed = this.text;
      this.addText(
        answer.startsWith(streamed) ? answer.slice(streamed.length) : `${streamed ? "\n\n" : ""}${answer}`,
      );
    }
    if (this.open) this.closeOpen(status);
  }

  private addReasoning(text: string): void {
    if (this.open?.item.type !== "reasoning") {
      if (this.open) this.closeOpen("completed");
      const item: ReasoningItem = {
        type: "reasoning",
        id: `rs_${this.runId}_${this.items.length}`,
        summary: [],
        content: [],
        status: "in_progress",
      };
      this.openItem(item);
      const part = { type: "reasoning_text" as const, text: "" };
      this.emitPart("response.content_part.added", item.id, { ...part });
      item.content.push(part);
    }
    const { item, index } = this.open!;
    (item as ReasoningItem).content[0]!.text += text;
    this.emit({
      type: "response.reasoning_text.delta",
      item_id: item.id,
      output_index: index,
      content_index: 0,
      delta: text,
    });
  }

  private addText(text: string): void {
    if (text.length === 0) return;
    if (this.open?.item.type !== "message") {
      if (this.open) this.closeOpen("completed");
      const item: MessageItem = {
        type: "message",
        id: `msg_${this.runId}_${this.items.length}`,
        role: "assistant",
        status: "in_progress",
        content: [],
      };
      this.openItem(item);
      const part = { type: "output_text" as const, text: "", annotations: [], logprobs: [] };
      this.emitPart("response.content_part.added", item.id, structuredClone(part));
      item.content.push(part);
    }
    const { item, index } = this.open!;
    (item as MessageItem).content[0]!.text += text;
    this.emit({
      type: "response.output_text.delta",
      item_id: item.id,
      output_index: index,
      content_index: 0,
      delta: text,
      logprobs: [],
    });
  }

  private openItem(item: OutputItem): void {
    const index = this.items.length;
    this.emit({ type: "response.output_item.added", output_index: index, item: structuredClone(item) });
    this.items.push(item);
    this.open = { item, index };
  }

  private emitPart(type: string, itemId: string, part: Record<string, unknown>): void {
    this.emit({ type, item_id: itemId, output_index: this.open!.index, content_index: 0, part });
  }

  private closeOpen(status: MessageItem["status"]): void {
    const { item, index } = this.open!;
    const part = item.content[0]!;
    if (item.type === "reasoning") {
      this.emit({
        type: "response.reasoning_text.done",
        item_id: item.id,
        output_index: index,
        content_index: 0,
        text: part.text,
      });
      item.status = "completed";
    } else {
      this.emit({
        type: "response.output_text.done",
        item_id: item.id,
        output_index: index,
        content_index: 0,
        text: part.text,
        logprobs: [],
      });
      item.status = status;
    }
    this.emitPart(
      "response.content_part.done",
      item.id,
      structuredClone(part) as unknown as Record<string, unknown>,
    );
    this.emit({ type: "response.output_item.done", output_index: index, item: structuredClone(item) });
    this.open = undefined;
  }
}
