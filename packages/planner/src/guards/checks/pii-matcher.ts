import { PII_TYPES, type PiiType } from "@waddle/protocol";
import type { GuardSpan } from "../guard-types.js";
import { findCards } from "./pii-card.js";
import { findEmails } from "./pii-email.js";
import { findIbans } from "./pii-iban.js";
import { findPhones } from "./pii-phone.js";
import { keepFirstSpans, type TextMatcher } from "./text-matcher.js";

/**
 * The rules of the `pii` check, most specific first: where two overlap (a card's digits also read as a
 * phone number), the earlier keeps its span. Rules and limits: RULES.md and each rule's file.
 */
const RULES: readonly { type: PiiType; find: (text: string) => GuardSpan[] }[] = [
  { type: "email", find: findEmails },
  { type: "iban", find: findIbans },
  { type: "card", find: findCards },
  { type: "phone", find: findPhones },
];

/** The longest span: a 64-char local part, 8 labels of 63 and a TLD of 63 is under 640. */
const PII_MAX_SPAN = 640;

/** A matcher for the given PII types (all of them by default); masks are `[email]`, `[phone]`, `[card]`, `[iban]`. */
export function createPiiMatcher(types: readonly PiiType[] = PII_TYPES): TextMatcher {
  const rules = RULES.filter((rule) => types.includes(rule.type));
  const rank = new Map(RULES.map((rule, index) => [rule.type as string, index]));
  return {
    maxSpanChars: PII_MAX_SPAN,
    findSpans(text) {
      const spans = rules.flatMap((rule) => rule.find(text));
      return keepFirstSpans(spans, (span) => rank.get(span.kind) ?? RULES.length);
    },
    getMask: (kind) => `[${kind}]`,
  };
}
