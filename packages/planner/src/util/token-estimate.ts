/**
 * Token estimates for budgets: fast, deterministic and model-independent. One token is taken as four
 * characters (the usual figure for English text with GPT-style tokenizers), and each chat message costs
 * four more for its role and framing. Estimates steer compaction; they are never billed.
 */
export const CHARS_PER_TOKEN = 4;
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Estimated tokens of a text, or of chat messages (content plus per-message framing). */
export function estimateTokens(input: string | readonly { readonly content: string }[]): number {
  if (typeof input === "string") return Math.ceil(input.length / CHARS_PER_TOKEN);
  let tokens = 0;
  for (const message of input) tokens += estimateTokens(message.content) + MESSAGE_OVERHEAD_TOKENS;
  return tokens;
}

/** Estimated tokens of a value once written as compact JSON (what a prompt would carry). */
export function estimateJsonTokens(value: unknown): number {
  const text = JSON.stringify(value);
  return text === undefined ? 0 : estimateTokens(text);
}
