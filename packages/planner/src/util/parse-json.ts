/** A text parsed as JSON, or why it is not JSON. */
export type ParseJsonResult = { ok: true; value: unknown } | { ok: false; error: SyntaxError };

/**
 * Parses JSON without throwing: the one place the planner catches `JSON.parse` on text it did not write
 * (LLM replies, machine messages). The value is `unknown`: check it with zod before trusting it.
 */
export function parseJson(text: string): ParseJsonResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof SyntaxError ? error : new SyntaxError(String(error)) };
  }
}
