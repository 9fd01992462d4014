import type { GuardCheck, SCANNING_CHECK_KINDS } from "@waddle/protocol";
import type { Scanner } from "../guard-types.js";
import { createDenyWordsMatcher } from "./deny-words-matcher.js";
import { createPiiMatcher } from "./pii-matcher.js";
import { createPromptInjectionMatcher } from "./prompt-injection-matcher.js";
import { createSecretsMatcher } from "./secrets-matcher.js";
import { createSlicedScanner, type ScannerOptions } from "./sliced-scanner.js";
import type { TextMatcher } from "./text-matcher.js";

/** A check that finds spans in text (and so can `redact`): `pii`, `secrets`, `prompt_injection`, `deny_words`. */
export type ScanningCheck = Extract<GuardCheck, { kind: (typeof SCANNING_CHECK_KINDS)[number] }>;

/** The rules of one scanning check, over one string at a time. */
export function createTextMatcher(check: ScanningCheck): TextMatcher {
  switch (check.kind) {
    case "pii":
      return createPiiMatcher(check.types);
    case "secrets":
      return createSecretsMatcher();
    case "prompt_injection":
      return createPromptInjectionMatcher();
    case "deny_words":
      return createDenyWordsMatcher(check);
  }
}

/**
 * A scanner for one scanning check, compiled once per guard (a `deny_words` regex that does not compile
 * throws `GuardCheckError` `invalid_guard_check` here). Findings are kinds and counts: pii `email`,
 * `phone`, `card`, `iban`; secrets one kind per format (`aws_access_key`, `github_token`, `jwt`,
 * `private_key`, `api_key`, …); prompt_injection `injection`; deny_words `word`. Masks: `[email]`,
 * `[phone]`, `[card]`, `[iban]`, `[secret]`, `[injection]`, `[redacted]`. Rules and limits: RULES.md.
 */
export function createScanner(check: ScanningCheck, options: ScannerOptions = {}): Scanner {
  return createSlicedScanner(createTextMatcher(check), options);
}

export type { ScannerOptions } from "./sliced-scanner.js";
