import { isPlanningHintsLike, parseJson } from "@waddle/protocol";

/** What the import box holds: nothing yet, something that cannot be imported (and why), a spec or hints. */
export type ImportText =
  | { kind: "empty" }
  | { kind: "invalid"; error: string }
  | { kind: "spec"; value: Record<string, unknown> }
  | { kind: "hints"; value: Record<string, unknown>; hints: unknown };

/**
 * Reads pasted or loaded import text. Only a JSON object can be an agent spec or a planning_hints dict, so
 * anything else (a number, a list, null) is refused here with a reason instead of being sent to the server.
 */
export function readImportText(text: string): ImportText {
  if (text.trim() === "") return { kind: "empty" };
  const parsed = parseJson(text);
  if (!parsed.ok) return { kind: "invalid", error: `Not valid JSON: ${parsed.error}` };
  const value = parsed.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const got = value === null ? "null" : Array.isArray(value) ? "a list" : `a ${typeof value}`;
    return {
      kind: "invalid",
      error: `This is ${got}; an import is a JSON object: an agent spec or a planning_hints dict.`,
    };
  }
  const record = value as Record<string, unknown>;
  if (!isPlanningHintsLike(record)) return { kind: "spec", value: record };
  return { kind: "hints", value: record, hints: "planning_hints" in record ? record.planning_hints : record };
}
