import type { LlmClient, LlmCompleteOptions, LlmResult } from "../llm/llm-client.js";
import type { RecordedLlmResult, RunCalls } from "../run/call-record.js";
import { getLlmRequestKey } from "./recorded-call-matcher.js";
import { redactText } from "../secrets/redact-text.js";

/**
 * The model as a run with `RunCalls` sees it: a planning reply a person wrote comes first (`nextReply`),
 * then each request is served from the replay layer when its key matches a recorded one, else asked of
 * `inner`; every reply the model really gave is recorded with its request's key.
 */
export function createCallLayerLlmClient(input: {
  inner: LlmClient;
  calls: RunCalls;
  /** The step the call belongs to (the trajectory's length when it is made). */
  getStep: () => number;
  /** toolContext strings: redacted from recorded replies. */
  secrets: ReadonlySet<string>;
}): LlmClient {
  const { inner, calls, getStep, secrets } = input;
  let nextReply = calls.nextReply;
  const needsKey = calls.record !== undefined || calls.replay?.llm !== undefined;
  const record = (entry: { key: string; purpose: string; result: LlmResult | RecordedLlmResult }) => {
    if (calls.record === undefined) return;
    const { result } = entry;
    const recorded: RecordedLlmResult = { content: redactText(result.content, secrets) };
    if (result.reasoning !== undefined) recorded.reasoning = redactText(result.reasoning, secrets);
    if (result.model !== undefined) recorded.model = result.model;
    if (result.finishReason !== undefined) recorded.finishReason = result.finishReason;
    try {
      calls.record({
        kind: "llm",
        step: getStep(),
        key: entry.key,
        purpose: entry.purpose,
        result: recorded,
      });
    } catch {
      // A failing record sink must not break the run.
    }
  };
  return {
    provider: inner.provider,
    model: inner.model,
    ...(inner.offline === true ? { offline: true } : {}),
    complete: async (request: LlmCompleteOptions): Promise<LlmResult> => {
      if (nextReply !== undefined && (request.purpose === undefined || request.purpose === "plan")) {
        const content = nextReply;
        nextReply = undefined;
        return { content, edited: true };
      }
      const key = needsKey
        ? getLlmRequestKey({
            ...(calls.clientKey === undefined ? {} : { clientKey: calls.clientKey }),
            provider: inner.provider,
            model: inner.model,
            request,
          })
        : "";
      const purpose = request.purpose ?? "plan";
      const served = calls.replay?.llm?.({ key, purpose });
      // A served reply is part of this run's record too: a fork of this run may reuse it.
      if (served !== undefined) {
        record({ key, purpose, result: served });
        return { ...served, cached: true, costUsd: 0 };
      }
      const result = await inner.complete(request);
      record({ key, purpose, result });
      return result;
    },
  };
}
