import type { GuardSpan } from "../guard-types.js";

// Emails: a practical subset of RFC 5322 (RULES.md). Local part: the atom characters and dots, 1–64 of
// them; domain: 1–8 dot-ended labels (letters, digits, inner hyphens, ≤ 63 each) and a letter-only TLD
// of 2–63. Missed: quoted local parts ("john doe"@x.org), IP-literal and IDN (non-ASCII) domains,
// addresses without a TLD (root@localhost), a local part longer than 64. False positives: user@host
// forms that are not mailboxes (git@github.com), `name@2x.example`.
const LOCAL_CHARS = "A-Za-z0-9!#$%&'*+/=?^_`{|}~.-";
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
/**
 * Linear: a match starts only where a run of local-part characters starts (the lookbehind), every
 * repetition is bounded, and labels end at a dot they cannot contain.
 */
const EMAIL = new RegExp(
  `(?<![${LOCAL_CHARS}])[${LOCAL_CHARS}]{1,64}@(?:${LABEL}\\.){1,8}[A-Za-z]{2,63}(?![A-Za-z0-9-])`,
  "g",
);
/** Asset names that look like addresses: `logo@2x.png`. */
const FILE_SUFFIX = /\.(?:png|jpe?g|gif|svg|webp|avif|ico|bmp|css|js|mjs|ts|json|map|woff2?|ttf|pdf|zip)$/i;

/** Email addresses in `text`. */
export function findEmails(text: string): GuardSpan[] {
  if (!text.includes("@")) return [];
  const spans: GuardSpan[] = [];
  for (const match of text.matchAll(EMAIL)) {
    let start = match.index;
    let found = match[0];
    // A sentence's dot before the address ("...see.john@x.org") is not part of it.
    while (found.startsWith(".")) {
      found = found.slice(1);
      start += 1;
    }
    const local = found.slice(0, found.indexOf("@"));
    if (local.length === 0 || local.endsWith(".") || local.includes("..")) continue;
    if (FILE_SUFFIX.test(found)) continue;
    spans.push({ start, end: start + found.length, kind: "email" });
  }
  return spans;
}
