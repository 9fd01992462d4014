import type { GuardSpan } from "../guard-types.js";

// IBANs (RULES.md): two capital letters of a country in the table below, two check digits, then the BBAN
// in capitals and digits, written together or in groups split by single spaces; exactly the country's
// length; the ISO 7064 mod-97 check (the rearranged number mod 97 is 1). Missed: lower-case IBANs, IBANs
// split by hyphens or dots, countries not in the table. False positives: about one random string in 97
// of the right shape passes the check.

/** IBAN length by country (ISO 13616 registry; the countries that use IBANs most). */
// prettier-ignore
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, CH: 21, CR: 22, CY: 28,
  CZ: 24, DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23,
  GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20,
  LB: 28, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18,
  NO: 15, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SE: 24, SI: 19, SK: 24, SM: 27,
  TN: 24, TR: 26, UA: 29, VG: 24, XK: 20,
};

/** Linear: each repetition takes one char after an optional single space; starts only at a word's start. */
const IBAN = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,32}(?![A-Za-z0-9])/g;

/** True when `iban` (capitals and digits only, no spaces) passes the ISO 7064 mod-97 check. */
export function isIbanChecksumValid(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const code = char.charCodeAt(0);
    if (code >= 48 && code <= 57) remainder = (remainder * 10 + (code - 48)) % 97;
    else if (code >= 65 && code <= 90) remainder = (remainder * 100 + (code - 55)) % 97;
    else return false;
  }
  return remainder === 1;
}

/**
 * The length of the IBAN a match starts with, or 0: its country's number of chars (spaces skipped),
 * ending where a space or the match ends, since a greedy match may run on into capitals that follow.
 */
function getIbanLength(written: string): number {
  const length = IBAN_LENGTHS[written.slice(0, 2)];
  if (length === undefined) return 0;
  let chars = 0;
  let end = 0;
  while (end < written.length && chars < length) {
    if (written[end] !== " ") chars += 1;
    end += 1;
  }
  if (chars < length || (end < written.length && written[end] !== " ")) return 0;
  return isIbanChecksumValid(written.slice(0, end).replaceAll(" ", "")) ? end : 0;
}

/** IBANs in `text`. */
export function findIbans(text: string): GuardSpan[] {
  const spans: GuardSpan[] = [];
  for (const match of text.matchAll(IBAN)) {
    const length = getIbanLength(match[0]);
    if (length > 0) spans.push({ start: match.index, end: match.index + length, kind: "iban" });
  }
  return spans;
}
