import { EventType, type Event as AguiEvent, type TokenUsage } from "@ag-ui/core";
import type { RunEvent, RunEventOf } from "@waddle/protocol";
import { getTodosPatch, toPlainTodo, type TodoItem } from "./get-todos-patch.js";

/**
 * What the caller sees of the run besides its answer and todos. A key sees everything; a public chat's
 * visitor sees the tool calls as its `showSteps` says (`names`: names and whether each call succeeded,
 * never what went in or came out; `none`: no tool calls) and never the model's thinking.
 */
export interface AguiView {
  tools: "full" | "names" | "none";
  thinking: boolean;
}

/** Everything: a key's view. */
export const FULL_VIEW: AguiView = { tools: "full", thinking: true };

export interface AguiEventMapperOptions {
  /** The Waddle run whose events are mapped: message and tool call ids are made from it and a seq. */
  waddleRunId: string;
  view: AguiView;
  /** The `write_todos` list the client's state holds already (a resumed run's, from before its pause). */
  todos?: readonly TodoItem[];
}

interface OpenMessage {
  id: string;
  /** The LLM call (`action_seq`) whose stream it shows. */
  call: number;
  text: string;
}

/**
 * Turns a Waddle run's events into AG-UI events, one run event at a time: a step is `STEP_STARTED` /
 * `STEP_FINISHED`; each LLM call's answer channel a text message and its thinking channel a reasoning
 * message (`REASONING_*`, as AG-UI 1.0 names thought); each tool call `TOOL_CALL_START` / `_ARGS` /
 * `_END` then `TOOL_CALL_RESULT`; each `todos_updated` a `STATE_DELTA` on `state.todos`. Ids are the run's
 * id and a seq or call id, so that a resumed run's events never reuse the ids of the run before its pause.
 * Pure: no I/O, no clock.
 */
export class AguiEventMapper {
  private step: string | undefined;
  private text: OpenMessage | undefined;
  private reasoning: OpenMessage | undefined;
  /** The latest answer message, open or closed: the run's final answer is checked against it. */
  private lastAnswer: OpenMessage | undefined;
  private readonly toolCalls = new Set<string>();
  private readonly usage: TokenUsage[] = [];
  private todoList: TodoItem[];

  constructor(private readonly options: AguiEventMapperOptions) {
    this.todoList = (options.todos ?? []).map(toPlainTodo);
  }

  /** The `write_todos` list as the client's state holds it now. */
  get todos(): readonly TodoItem[] {
    return this.todoList;
  }

  /** Tokens of the LLM calls mapped so far, one entry per call (sum them with `aggregateTokenUsage`). */
  get tokenUsage(): readonly TokenUsage[] {
    return this.usage;
  }

  map(event: RunEvent): AguiEvent[] {
    switch (event.type) {
      case "step_start":
        return [
          ...this.close(),
          { type: EventType.STEP_STARTED, stepName: (this.step = `step ${event.step + 1}`) },
        ];
      case "llm_stream_chunk":
        return event.data.channel === "thinking" ? this.onThinking(event) : this.onAnswer(event);
      case "llm_call":
        this.usage.push(getTokenUsage(event.data));
        return [];
      case "tool_start":
        return this.onToolStart(event);
      case "tool_end":
      case "tool_error":
        return this.onToolResult(event);
      case "todos_updated": {
        const after = event.data.todos.map(toPlainTodo);
        const delta = getTodosPatch(this.todoList, after);
        this.todoList = after;
        return delta.length === 0 ? [] : [{ type: EventType.STATE_DELTA, delta }];
      }
      default:
        return [];
    }
  }

  /**
   * What ends the answer so that the messages show the run's final answer: nothing when the last streamed
   * message is it, its missing tail while that message is open, else the answer as a message of its own
   * (a model that streamed nothing, or streamed an answer the run did not keep).
   */
  completeAnswer(answer: string, seq: number): AguiEvent[] {
    const last = this.lastAnswer;
    if (answer.length === 0 || last?.text === answer) return [];
    if (last && last === this.text && answer.startsWith(last.text)) {
      return [this.appendText(last, answer.slice(last.text.length))];
    }
    const events = this.closeText();
    const message = { id: this.messageId(seq), call: -1, text: "" };
    events.push({ type: EventType.TEXT_MESSAGE_START, messageId: message.id, role: "assistant" });
    events.push(this.appendText(message, answer));
    events.push({ type: EventType.TEXT_MESSAGE_END, messageId: message.id });
    this.lastAnswer = message;
    return events;
  }

  /** Ends what is open — messages, then the step — as a run must before it finishes or pauses. */
  close(): AguiEvent[] {
    const events = [...this.closeReasoning(), ...this.closeText()];
    if (this.step !== undefined) events.push({ type: EventType.STEP_FINISHED, stepName: this.step });
    this.step = undefined;
    return events;
  }

  private onThinking(event: RunEventOf<"llm_stream_chunk">): AguiEvent[] {
    if (!this.options.view.thinking) return [];
    const { text, done, action_seq: call } = event.data;
    if (done) return this.reasoning?.call === call ? this.closeReasoning() : [];
    if (text.length === 0) return [];
    const events = this.reasoning && this.reasoning.call !== call ? this.closeReasoning() : [];
    if (!this.reasoning) {
      const id = this.messageId(event.seq);
      this.reasoning = { id, call, text: "" };
      events.push({ type: EventType.REASONING_START, messageId: id });
      events.push({ type: EventType.REASONING_MESSAGE_START, messageId: id, role: "reasoning" });
    }
    this.reasoning.text += text;
    events.push({ type: EventType.REASONING_MESSAGE_CONTENT, messageId: this.reasoning.id, delta: text });
    return events;
  }

  private onAnswer(event: RunEventOf<"llm_stream_chunk">): AguiEvent[] {
    const { text, done, action_seq: call } = event.data;
    if (done) return this.text?.call === call ? this.closeText() : [];
    if (text.length === 0) return [];
    // The call has moved on from thinking to answering: its thought is complete.
    const events = this.closeReasoning();
    if (this.text && this.text.call !== call) events.push(...this.closeText());
    if (!this.text) {
      this.text = { id: this.messageId(event.seq), call, text: "" };
      this.lastAnswer = this.text;
      events.push({ type: EventType.TEXT_MESSAGE_START, messageId: this.text.id, role: "assistant" });
    }
    events.push(this.appendText(this.text, text));
    return events;
  }

  private onToolStart(event: RunEventOf<"tool_start">): AguiEvent[] {
    if (this.options.view.tools === "none") return [];
    const toolCallId = this.toolCallId(event.data.callId);
    // A retry is the same call going on: it was shown once.
    if (this.toolCalls.has(toolCallId)) return [];
    return [...this.closeReasoning(), ...this.closeText(), ...this.startToolCall(event.data, toolCallId)];
  }

  private onToolResult(event: RunEventOf<"tool_end"> | RunEventOf<"tool_error">): AguiEvent[] {
    if (this.options.view.tools === "none") return [];
    const toolCallId = this.toolCallId(event.data.callId);
    // A call that started before these events began (a run followed from the middle) is shown whole.
    const events = this.toolCalls.has(toolCallId) ? [] : this.startToolCall(event.data, toolCallId);
    const failed = event.type === "tool_error";
    const shown =
      this.options.view.tools !== "full"
        ? { status: failed ? "failed" : "done" }
        : event.type === "tool_error"
          ? { error: { code: event.data.failure.error_code, message: event.data.failure.message } }
          : event.data.observation;
    events.push({
      type: EventType.TOOL_CALL_RESULT,
      messageId: `${toolCallId}-result`,
      toolCallId,
      role: "tool",
      content: typeof shown === "string" ? shown : (JSON.stringify(shown) ?? "null"),
    });
    return events;
  }

  private startToolCall(data: { tool: string; args?: unknown }, toolCallId: string): AguiEvent[] {
    this.toolCalls.add(toolCallId);
    const events: AguiEvent[] = [{ type: EventType.TOOL_CALL_START, toolCallId, toolCallName: data.tool }];
    if (this.options.view.tools === "full" && data.args !== undefined) {
      events.push({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta: JSON.stringify(data.args) });
    }
    events.push({ type: EventType.TOOL_CALL_END, toolCallId });
    return events;
  }

  private appendText(message: OpenMessage, delta: string): AguiEvent {
    message.text += delta;
    return { type: EventType.TEXT_MESSAGE_CONTENT, messageId: message.id, delta };
  }

  private closeText(): AguiEvent[] {
    if (!this.text) return [];
    const { id } = this.text;
    this.text = undefined;
    return [{ type: EventType.TEXT_MESSAGE_END, messageId: id }];
  }

  private closeReasoning(): AguiEvent[] {
    if (!this.reasoning) return [];
    const { id } = this.reasoning;
    this.reasoning = undefined;
    return [
      { type: EventType.REASONING_MESSAGE_END, messageId: id },
      { type: EventType.REASONING_END, messageId: id },
    ];
  }

  private messageId(seq: number): string {
    return `${this.options.waddleRunId}-${seq}`;
  }

  private toolCallId(callId: string): string {
    return `${this.options.waddleRunId}-${callId}`;
  }
}

/** One LLM call's tokens in AG-UI's accounting (reasoning is part of the output, as OpenAI counts it). */
function getTokenUsage(data: RunEventOf<"llm_call">["data"]): TokenUsage {
  return {
    provider: data.provider,
    model: data.model,
    inputTokens: data.promptTokens,
    outputTokens: data.completionTokens,
    totalTokens: data.promptTokens + data.completionTokens,
    ...(data.reasoningTokens > 0 ? { reasoningTokens: data.reasoningTokens } : {}),
  };
}
