import { describe, expect, it } from "vitest";
import { computeCostUsd, DEFAULT_PRICE_TABLE, getModelPrice } from "./price-table.js";

describe("getModelPrice", () => {
  it("knows common OpenAI and DeepSeek models", () => {
    for (const model of [
      "gpt-4o",
      "gpt-4o-mini",
      "gpt-4.1",
      "o3",
      "o4-mini",
      "gpt-5",
      "gpt-5-nano",
      "deepseek-chat",
      "deepseek-reasoner",
    ]) {
      expect(getModelPrice(model), model).toBeDefined();
    }
  });

  it("matches dated snapshots and router prefixes to their base model", () => {
    expect(getModelPrice("gpt-4o-mini-2024-07-18")).toEqual(DEFAULT_PRICE_TABLE["gpt-4o-mini"]);
    expect(getModelPrice("openai/gpt-4.1")).toEqual(DEFAULT_PRICE_TABLE["gpt-4.1"]);
    expect(getModelPrice("o3-mini-2025-01-31")).toEqual(DEFAULT_PRICE_TABLE["o3-mini"]);
    expect(getModelPrice("GPT-4o")).toEqual(DEFAULT_PRICE_TABLE["gpt-4o"]);
  });

  it("does not guess: an unknown model has no price, and o1-pro is not o1", () => {
    expect(getModelPrice("llama3.1:8b")).toBeUndefined();
    expect(getModelPrice("o1-pro")).not.toEqual(getModelPrice("o1"));
  });

  it("lets overrides win and add models", () => {
    const overrides = {
      "gpt-4o": { inputPerMTok: 1, outputPerMTok: 1 },
      "my-model": { inputPerMTok: 3, outputPerMTok: 4 },
    };
    expect(getModelPrice("gpt-4o", overrides)).toEqual({ inputPerMTok: 1, outputPerMTok: 1 });
    expect(getModelPrice("my-model", overrides)).toEqual({ inputPerMTok: 3, outputPerMTok: 4 });
  });
});

describe("computeCostUsd", () => {
  it("charges prompt and completion tokens per million", () => {
    expect(
      computeCostUsd(
        { promptTokens: 1_000_000, completionTokens: 500_000 },
        { inputPerMTok: 2, outputPerMTok: 8 },
      ),
    ).toBe(6);
  });

  it("charges reasoning tokens (part of the completion) at their own rate when one is set", () => {
    const usage = { promptTokens: 0, completionTokens: 1_000_000, reasoningTokens: 400_000 };
    expect(computeCostUsd(usage, { inputPerMTok: 1, outputPerMTok: 10 })).toBe(10);
    expect(computeCostUsd(usage, { inputPerMTok: 1, outputPerMTok: 10, reasoningPerMTok: 5 })).toBe(8);
  });
});
