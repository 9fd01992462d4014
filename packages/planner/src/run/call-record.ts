import type { SideEffect } from "@waddle/protocol";
import type { TrajectoryStep } from "./run-state.js";

/** What an LLM call returned, as a record keeps it (the reply, never the request: that is `key`). */
export interface RecordedLlmResult {
  content: string;
  reasoning?: string;
  model?: string;
  finishReason?: string;
}

/**
 * What a run did, call by call, kept by its host so that a fork of the run can rebuild its state and
 * reuse its calls (docs/forks.md): every completed step (with the model's verbatim reply), every LLM call
 * (by the key of its whole request) and every successful tool call.
 */
export type CallRecord =
  | { kind: "step"; step: TrajectoryStep; reply?: string }
  | { kind: "llm"; step: number; key: string; purpose: string; result: RecordedLlmResult }
  | {
      kind: "tool";
      step: number;
      tool: string;
      sideEffects: SideEffect;
      args: Record<string, unknown>;
      observation: unknown;
    };

/** Receives each record as it happens, synchronously; a failing sink never breaks the run. */
export type CallRecordSink = (record: CallRecord) => void;

/** A tool call as the replay layer is asked about it: args already validated. */
export interface ToolCallQuery {
  tool: string;
  sideEffects: SideEffect;
  args: Record<string, unknown>;
}

/**
 * What the replay layer answers for a tool call: an observation to serve (`edited`: a value a person wrote
 * in place of the tool's, a fork's observation edit), or a refusal: the call fails with that code and the
 * tool never runs (a shadow comparison refuses every call it has no recording of).
 */
export type ServedToolCall =
  | { observation: unknown; edited?: boolean }
  | { refused: { code: string; message: string; suggestion?: string } };

/**
 * Serves calls from an earlier run's record instead of making them (a fork's `reuse: "recorded"`, a shadow
 * comparison). Undefined means "not provably the same": the call runs for real.
 */
export interface CallReplay {
  llm?(query: { key: string; purpose: string }): RecordedLlmResult | undefined;
  tool?(query: ToolCallQuery): ServedToolCall | undefined;
}

/** A run's record and replay layer (`RunOptions.calls`). */
export interface RunCalls {
  record?: CallRecordSink;
  replay?: CallReplay;
  /**
   * Says which model endpoint and parameters the client stands for (e.g. the agent's `llm` config as
   * JSON): part of every LLM request's key, so that a changed temperature or endpoint never matches.
   */
  clientKey?: string;
  /**
   * Replaces the next planning reply (a fork's `llm_reply` edit): the model is not asked, and the reply
   * goes through parsing and repair as a real one would.
   */
  nextReply?: string;
}
