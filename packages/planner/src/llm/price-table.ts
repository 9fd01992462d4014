import type { LlmPrice } from "@waddle/protocol";
import type { LlmUsage } from "./llm-client.js";

/** USD per million tokens, keyed by model name. */
export type PriceTable = Readonly<Record<string, LlmPrice>>;

/**
 * List prices of common models (standard tier, uncached input), as published by the vendors in 2025.
 * Prices change: a spec's `llm.price` and the caller's table override these (docs/price-table.md).
 */
export const DEFAULT_PRICE_TABLE: PriceTable = {
  "gpt-4o": { inputPerMTok: 2.5, outputPerMTok: 10 },
  "gpt-4o-mini": { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  "gpt-4.1": { inputPerMTok: 2, outputPerMTok: 8 },
  "gpt-4.1-mini": { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  "gpt-4.1-nano": { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  o1: { inputPerMTok: 15, outputPerMTok: 60 },
  "o1-mini": { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  "o1-pro": { inputPerMTok: 150, outputPerMTok: 600 },
  o3: { inputPerMTok: 2, outputPerMTok: 8 },
  "o3-mini": { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  "o3-pro": { inputPerMTok: 20, outputPerMTok: 80 },
  "o4-mini": { inputPerMTok: 1.1, outputPerMTok: 4.4 },
  "gpt-5": { inputPerMTok: 1.25, outputPerMTok: 10 },
  "gpt-5-mini": { inputPerMTok: 0.25, outputPerMTok: 2 },
  "gpt-5-nano": { inputPerMTok: 0.05, outputPerMTok: 0.4 },
  "gpt-5-chat-latest": { inputPerMTok: 1.25, outputPerMTok: 10 },
  "deepseek-chat": { inputPerMTok: 0.28, outputPerMTok: 0.42 },
  "deepseek-reasoner": { inputPerMTok: 0.28, outputPerMTok: 0.42 },
};

// Dated snapshots ("gpt-4o-2024-08-06", "o3-mini-2025-01-31") and "-latest" aliases share their base price.
const SNAPSHOT_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{4}|latest)$/;

/**
 * The price of a model: `overrides` first, then the default table. Matches the exact name, then the name
 * without a router prefix (`openai/gpt-4o` on OpenRouter), then without a dated snapshot suffix.
 * `undefined` when unknown: the cost is then not reported rather than guessed.
 */
export function getModelPrice(model: string, overrides: PriceTable = {}): LlmPrice | undefined {
  const table = { ...DEFAULT_PRICE_TABLE, ...overrides };
  const lower = model.toLowerCase();
  const unprefixed = lower.slice(lower.lastIndexOf("/") + 1);
  const candidates = [model, lower, unprefixed, unprefixed.replace(SNAPSHOT_SUFFIX, "")];
  for (const name of candidates) {
    if (Object.hasOwn(table, name)) return table[name];
  }
  return undefined;
}

/**
 * USD for one call. Completion tokens include reasoning tokens (as OpenAI and DeepSeek report them); when a
 * price sets `reasoningPerMTok`, those tokens are charged at that rate instead of the output rate.
 */
export function computeCostUsd(usage: LlmUsage, price: LlmPrice): number {
  const reasoning = Math.min(usage.reasoningTokens ?? 0, usage.completionTokens);
  const reasoningRate = price.reasoningPerMTok ?? price.outputPerMTok;
  const micro =
    usage.promptTokens * price.inputPerMTok +
    (usage.completionTokens - reasoning) * price.outputPerMTok +
    reasoning * reasoningRate;
  return micro / 1_000_000;
}
