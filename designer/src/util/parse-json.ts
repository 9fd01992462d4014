/** A value read from text, or why it could not be read (shown to people as is). */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Parses JSON without throwing: the one place the designer catches `JSON.parse` on text it did not write
 * (typed fields, imports, drops, server bodies). The value is `unknown`: check it before trusting it.
 */
export function parseJson(text: string): ParseResult<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
