import { parseJson } from "@waddle/protocol";
/**
 * Parses the JSON object an LLM was asked for: the whole reply, or the first `{…}` block when the model
 * wrapped it in prose or a Markdown fence. Returns `undefined` when there is no JSON object; the caller
 * validates the result with zod.
 */
export function parseLlmJson(text: string): unknown {
  const trimmed = text.trim();
  const direct = parseJson(trimmed);
  if (direct.ok) return direct.value;
  const start = trimmed.indexOf("{");
  const end = trimmed.lastIndexOf("}");
  if (start === -1 || end <= start) return undefined;
  const block = parseJson(trimmed.slice(start, end + 1));
  return block.ok ? block.value : undefined;
}
