import { createHash } from "node:crypto";
import { READ_ONLY_SIDE_EFFECTS } from "@waddle/protocol";
import type { LlmCompleteOptions } from "../llm/llm-client.js";
import type { CallRecord, CallReplay, RecordedLlmResult, ToolCallQuery } from "../run/call-record.js";

/**
 * JSON with object keys sorted at every depth: two values that are equal as JSON give the same text,
 * whatever order their keys were written in.
 */
export function getCanonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) sorted[key] = sortKeys(item);
  }
  return sorted;
}

/**
 * The key of a whole LLM request: the endpoint and parameters (`clientKey`), provider, model, every
 * message, the response format, reasoning effort and purpose. Equal keys mean the same request (SHA-256);
 * what only in-process models read (`plannerView`) is derived from the same run and left out.
 */
export function getLlmRequestKey(input: {
  clientKey?: string;
  provider: string;
  model: string;
  request: Pick<LlmCompleteOptions, "messages" | "model" | "responseFormat" | "reasoningEffort" | "purpose">;
}): string {
  const { request } = input;
  const hash = createHash("sha256");
  hash.update(
    getCanonicalJson({
      clientKey: input.clientKey ?? "",
      provider: input.provider,
      model: request.model ?? input.model,
      responseFormat: request.responseFormat ?? null,
      reasoningEffort: request.reasoningEffort ?? null,
      purpose: request.purpose ?? null,
    }),
  );
  for (const message of request.messages) {
    hash.update("\u0000");
    hash.update(message.role);
    hash.update("\u0001");
    hash.update(message.content);
  }
  return hash.digest("hex");
}

/** The key of a tool call: the tool and its args as canonical JSON. */
export function getToolCallKey(tool: string, args: unknown): string {
  return `${tool}\u0000${getCanonicalJson(args)}`;
}

export interface RecordedCallMatcherOptions {
  /** An earlier run's records (`RunCalls.record`), in the order they were made. */
  records: readonly CallRecord[];
  /**
   * Tools whose definition is the same as when the records were made (the same tool version): only their
   * calls can be served. Default: every tool.
   */
  isSameTool?: (tool: string) => boolean;
  /** False: no LLM call is served (e.g. the model's endpoint or parameters changed). Default true. */
  llm?: boolean;
}

/**
 * Serves calls from a record when they are provably the same (the matching behind a fork's
 * `reuse: "recorded"`): an LLM call whose request key equals a recorded one (each recorded reply serves
 * one call, in order), and a `pure` or `read` tool call, recorded as `pure` or `read` too, of an unchanged
 * tool with equal args. `write`, `external` and `stateful` calls are never served.
 */
export function createRecordedCallMatcher(options: RecordedCallMatcherOptions): CallReplay {
  const replies = new Map<string, RecordedLlmResult[]>();
  const observations = new Map<string, unknown>();
  const isSameTool = options.isSameTool ?? (() => true);
  for (const record of options.records) {
    if (record.kind === "llm") {
      const queue = replies.get(record.key);
      if (queue === undefined) replies.set(record.key, [record.result]);
      else queue.push(record.result);
    } else if (record.kind === "tool" && READ_ONLY_SIDE_EFFECTS.has(record.sideEffects)) {
      const key = getToolCallKey(record.tool, record.args);
      if (!observations.has(key)) observations.set(key, record.observation);
    }
  }
  const replay: CallReplay = {
    tool(query: ToolCallQuery) {
      if (!READ_ONLY_SIDE_EFFECTS.has(query.sideEffects) || !isSameTool(query.tool)) return undefined;
      const key = getToolCallKey(query.tool, query.args);
      return observations.has(key) ? { observation: structuredClone(observations.get(key)) } : undefined;
    },
  };
  if (options.llm !== false) replay.llm = (query) => replies.get(query.key)?.shift();
  return replay;
}
