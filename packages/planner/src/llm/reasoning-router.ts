import type { ReasoningEffort, Usage } from "@waddle/protocol";
import { z } from "zod";
import { clipText } from "../util/compact-value.js";
import type { LlmClient, LlmMessage, LlmResult } from "./llm-client.js";
import { parseLlmJson } from "./parse-llm-json.js";
import type { ConcreteReasoningEffort } from "../run/run-state.js";

/** A model the router may pick (the spec's `candidateLlms`). */
export interface RouteCandidate {
  id: string;
  description: string;
}

export interface RouteReasoningOptions {
  /** The router LLM (`routerLlm`, else the main one). */
  llm: LlmClient;
  query: string;
  candidates?: readonly RouteCandidate[];
  signal?: AbortSignal;
  /** Called after each router call, e.g. to emit `llm_call`. */
  onLlmCall?: (result: LlmResult) => void;
}

export interface ReasoningRoute {
  effort: ConcreteReasoningEffort;
  /** A candidate's id; absent means the main model. */
  modelId?: string;
  /** Summed over router calls. */
  usage?: Usage;
  /** Set when the router's answer was unusable and the defaults were taken. */
  fallbackReason?: string;
}

const MAX_QUERY_CHARS = 2_000;
const RouterReply = z.object({
  effort: z.enum(["low", "medium", "high"]),
  model: z.string().min(1).optional(),
});

/**
 * The reasoning router (docs/reasoning-effort.md): asks an LLM, with a short JSON-only prompt, how much reasoning a query
 * needs and, when candidates are given, which model should run it. An unusable reply is retried once;
 * after that (or when the call fails) the answer is `medium` on the main model.
 */
export async function routeReasoning(options: RouteReasoningOptions): Promise<ReasoningRoute> {
  const candidates = options.candidates ?? [];
  const messages: LlmMessage[] = [
    { role: "system", content: getRouterPrompt(candidates) },
    { role: "user", content: clipText(options.query, MAX_QUERY_CHARS) },
  ];
  const usage: Usage = { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0, llmCalls: 0 };
  let problem = "";
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    let result: LlmResult;
    try {
      result = await options.llm.complete({
        messages,
        responseFormat: "json_object",
        purpose: "route",
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted === true) throw error;
      problem = `router call failed: ${error instanceof Error ? error.message : String(error)}`;
      break;
    }
    usage.llmCalls += 1;
    usage.promptTokens += result.usage?.promptTokens ?? 0;
    usage.completionTokens += result.usage?.completionTokens ?? 0;
    usage.reasoningTokens += result.usage?.reasoningTokens ?? 0;
    usage.costUsd += result.costUsd ?? 0;
    options.onLlmCall?.(result);
    const checked = checkReply(result.content, candidates);
    if (typeof checked !== "string") return { ...checked, usage };
    problem = checked;
    messages.push(
      { role: "assistant", content: clipText(result.content, 500) },
      { role: "user", content: `That reply is not usable: ${problem}. Reply with only the JSON object.` },
    );
  }
  return {
    effort: "medium",
    ...(usage.llmCalls > 0 ? { usage } : {}),
    fallbackReason: clipText(problem, 200),
  };
}

/**
 * The effort to pass to the LLM client: a configured low/medium/high wins; `auto` takes the router's
 * answer (medium without one); unset stays unset, so the client sends none.
 */
export function resolveReasoningEffort(
  configured: ReasoningEffort | undefined,
  routed: ConcreteReasoningEffort | undefined,
): ConcreteReasoningEffort | undefined {
  if (configured === undefined) return undefined;
  if (configured !== "auto") return configured;
  return routed ?? "medium";
}

function checkReply(
  content: string,
  candidates: readonly RouteCandidate[],
): { effort: ConcreteReasoningEffort; modelId?: string } | string {
  const parsed = RouterReply.safeParse(parseLlmJson(content));
  if (!parsed.success) return 'expected {"effort": "low" | "medium" | "high"}';
  const { effort, model } = parsed.data;
  if (model === undefined || candidates.length === 0) return { effort };
  if (!candidates.some((candidate) => candidate.id === model)) {
    return `"${clipText(model, 60)}" is not one of the models ${candidates.map((item) => item.id).join(", ")}`;
  }
  return { effort, modelId: model };
}

function getRouterPrompt(candidates: readonly RouteCandidate[]): string {
  const lines = [
    "You decide how much reasoning an assistant needs for the user's request.",
    "low: a lookup, a greeting or a one-step question. medium: a few steps or some judgement. " +
      "high: multi-step analysis, planning, math or code.",
  ];
  if (candidates.length === 0) {
    lines.push('Reply with JSON only: {"effort": "low" | "medium" | "high"}.');
  } else {
    lines.push("Also pick the smallest model that can do it well:");
    for (const candidate of candidates) {
      lines.push(`- ${candidate.id}: ${clipText(candidate.description.replace(/\s+/g, " "), 200)}`);
    }
    lines.push('Reply with JSON only: {"effort": "low" | "medium" | "high", "model": "<one of the ids>"}.');
  }
  return lines.join("\n");
}
