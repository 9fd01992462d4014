import type { GuardSpan } from "../guard-types.js";

// Payment cards (RULES.md): 13–19 digits, written together or in groups split by one kind of separator
// (space or hyphen) whose first group has 4 digits; the prefix and a length of a card network (Visa 4,
// Mastercard 51–55 and 2221–2720, Amex 34/37, Discover 6011/644–649/65, JCB 3528–3589, Diners
// 300–305/36/38/39, UnionPay 62, Maestro 50/56–69); and the Luhn check; not right after an IBAN's
// country and check digits (`DE89 3704 …` is an IBAN's BBAN, whatever its checksum). Missed: cards split by other characters, cards of
// other networks, numbers stored as JSON numbers. False positives: about one in ten 13–19-digit numbers
// starting 2–6 passes Luhn (order numbers, long IDs).
/** Linear: each repetition takes one digit; a match starts only where a run of digits starts. */
const CARD = /(?<![\w.+\-/])\d(?:[ -]?\d){12,18}(?![\w]|[.-]\d)/g;

const IBAN_HEAD = /[A-Z]{2}\d{2} ?$/;

/** True when `digits` (0–9 only) passes the Luhn (mod 10) check. */
export function isLuhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Card networks: IIN ranges (`from`–`to` on the number's first digits) and the lengths they issue. */
const NETWORKS: readonly { ranges: readonly (readonly [number, number])[]; lengths: readonly number[] }[] = [
  { ranges: [[4, 4]], lengths: [13, 16, 19] }, // Visa
  {
    ranges: [
      [51, 55],
      [2221, 2720],
    ],
    lengths: [16],
  }, // Mastercard
  {
    ranges: [
      [34, 34],
      [37, 37],
    ],
    lengths: [15],
  }, // American Express
  {
    ranges: [
      [6011, 6011],
      [644, 649],
      [65, 65],
    ],
    lengths: [16, 17, 18, 19],
  }, // Discover
  { ranges: [[3528, 3589]], lengths: [16, 17, 18, 19] }, // JCB
  {
    ranges: [
      [300, 305],
      [36, 36],
      [38, 39],
    ],
    lengths: [14, 15, 16, 17, 18, 19],
  }, // Diners Club
  { ranges: [[62, 62]], lengths: [16, 17, 18, 19] }, // UnionPay
  {
    ranges: [
      [50, 50],
      [56, 69],
    ],
    lengths: [13, 14, 15, 16, 17, 18, 19],
  }, // Maestro
];

/** True when the number starts like a card of a network in the list above and has one of its lengths. */
export function isCardNetworkNumber(digits: string): boolean {
  return NETWORKS.some(
    (network) =>
      network.lengths.includes(digits.length) &&
      network.ranges.some(([from, to]) => {
        const prefix = Number(digits.slice(0, String(from).length));
        return prefix >= from && prefix <= to;
      }),
  );
}

/** Groups of a written card: one separator throughout, a first group of 4, no group shorter than 3 but the last. */
function hasCardLayout(written: string): boolean {
  const separators = new Set(written.replace(/\d/g, ""));
  if (separators.size === 0) return true;
  if (separators.size > 1) return false;
  const groups = written.split(/[ -]/);
  if (groups[0]!.length !== 4) return false;
  return groups.slice(1, -1).every((group) => group.length >= 3 && group.length <= 6);
}

function isCard(written: string): boolean {
  const digits = written.replace(/\D/g, "");
  return isCardNetworkNumber(digits) && isLuhnValid(digits) && hasCardLayout(written);
}

/**
 * The card in a match, longest first: the whole match, then without its last groups, since a greedy match
 * may run on into a number that follows ("4111 1111 1111 1111 2 items").
 */
function getCardLength(written: string): number {
  for (
    let end = written.length;
    end > 0;
    end = Math.max(written.lastIndexOf(" ", end - 1), written.lastIndexOf("-", end - 1))
  ) {
    if (isCard(written.slice(0, end))) return end;
  }
  return 0;
}

/** Payment card numbers in `text`. */
export function findCards(text: string): GuardSpan[] {
  const spans: GuardSpan[] = [];
  for (const match of text.matchAll(CARD)) {
    if (IBAN_HEAD.test(text.slice(Math.max(0, match.index - 5), match.index))) continue;
    const length = getCardLength(match[0]);
    if (length > 0) spans.push({ start: match.index, end: match.index + length, kind: "card" });
  }
  return spans;
}
