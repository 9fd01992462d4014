import type { GuardSpan } from "../guard-types.js";
import { SECRET_MAX_SPAN, SECRET_RULES } from "./secret-rules.js";
import { keepFirstSpans, type TextMatcher } from "./text-matcher.js";

/**
 * The `secrets` check: every rule of secret-rules.ts whose hint occurs, most specific first (an overlap
 * keeps the earlier rule's span: `aws_secret_key` over the generic `api_key`). Every kind is masked
 * `[secret]`; a rule with a value group masks only the value (`api_key=[secret]`).
 */
export function createSecretsMatcher(): TextMatcher {
  const rank = new Map<string, number>();
  SECRET_RULES.forEach((rule, index) => rank.set(rule.kind, index));
  rank.set("password", rank.get("api_key") ?? SECRET_RULES.length);
  return {
    maxSpanChars: SECRET_MAX_SPAN,
    findSpans(text) {
      const lower = text.toLowerCase();
      const spans: GuardSpan[] = [];
      for (const rule of SECRET_RULES) {
        if (!rule.hints.some((hint) => lower.includes(hint))) continue;
        if (rule.find) for (const span of rule.find(text)) spans.push(span);
        if (!rule.pattern) continue;
        for (const match of text.matchAll(rule.pattern)) {
          const found = rule.value === undefined ? match[0] : match[rule.value];
          if (found === undefined || found.length === 0) continue;
          if (rule.accept && !rule.accept(found, match)) continue;
          const start = rule.value === undefined ? match.index : match.indices![rule.value]![0];
          spans.push({ start, end: start + found.length, kind: rule.kindOf?.(match) ?? rule.kind });
        }
      }
      return keepFirstSpans(spans, (span) => rank.get(span.kind) ?? SECRET_RULES.length);
    },
    getMask: () => "[secret]",
  };
}
