// What the shape rewrites of normalizeAction share: the rules applied to one reply and their notes.
import { createSalvageNote, type SalvageNote } from "../salvage-rules.js";

/** A JSON object as the rewrites read it. */
export type Json = Record<string, unknown>;

/** What the rewrites of one reply collect. */
export interface Rewrites {
  rules: string[];
  notes: SalvageNote[];
  droppedSteps?: unknown[];
}

/** Records that `rule` was applied, with its `action_salvaged` note. */
export function rewrite(into: Rewrites, rule: string, detail?: string): void {
  into.rules.push(rule);
  into.notes.push(createSalvageNote(rule, detail));
}

/** A JSON object, not an array or null. */
export function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
