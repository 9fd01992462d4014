import { useState } from "react";
import type { ParseResult } from "@waddle/protocol";

/**
 * Text a person edits for a value that is stored parsed (numbers, lists, JSON). The text follows the
 * stored value when it changes from outside (undo, another panel), but half-typed or invalid text is
 * kept while it is being edited; `error` says why it is not stored.
 */
export function useDraftText<T>(options: {
  value: T;
  format: (value: T) => string;
  parse: (text: string) => ParseResult<T>;
  isEqual?: (a: T, b: T) => boolean;
  onChange: (value: T) => void;
}): { text: string; error: string | null; setText: (text: string) => void } {
  const { value, format, parse, onChange } = options;
  const isEqual = options.isEqual ?? Object.is;
  const [draft, setDraft] = useState<{ text: string; source: T; error: string | null }>(() => ({
    text: format(value),
    source: value,
    error: null,
  }));
  let current = draft;
  if (!isEqual(draft.source, value)) {
    // the stored value changed: show it unless the draft already says the same thing
    const parsed = parse(draft.text);
    current =
      parsed.ok && isEqual(parsed.value, value)
        ? { ...draft, source: value }
        : { text: format(value), source: value, error: null };
    setDraft(current);
  }
  return {
    text: current.text,
    error: current.error,
    setText(text) {
      const parsed = parse(text);
      if (!parsed.ok) {
        setDraft({ text, source: current.source, error: parsed.error });
        return;
      }
      setDraft({ text, source: parsed.value, error: null });
      if (!isEqual(parsed.value, current.source)) onChange(parsed.value);
    },
  };
}

/** Structural equality for JSON values (drafts of lists and objects). */
export function isSameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
