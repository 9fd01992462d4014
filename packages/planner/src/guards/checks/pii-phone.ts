import type { GuardSpan } from "../guard-types.js";

// Phone numbers (RULES.md). International: `+`, a country code and 8–15 digits in all, together or in
// groups split by a space, dot or hyphen, with an optional `(0)` or `(area)` group. National: 7–12 digits
// in at least three groups (`020 7946 0958`, `06 12 34 56 78`, `555-123-4567`), or with an `(area)` group
// (`(415) 555-2671`), or a trunk `0` prefix and one more group (`030 12345678`). Left out as not phones:
// dates (`2024-01-15`, `15.01.2024`), IPv4 addresses, amounts in thousands (`1 250 000`), ISBNs, and any
// number touching a letter, a slash or another number. Missed: national numbers written without
// separators (`4155552671`) and two-group ones (`555-1234`); short codes. False positives: other numbers
// written like phones (`123-45-6789`, reference numbers in groups).
const GROUP = String.raw`(?:\(\d{1,5}\)|\d{1,8})`;
/** A separator, or none right after a `(group)`. */
const SEPARATOR = String.raw`(?:[ .\u00a0]|\s?-\s?|(?<=\)))`;
/**
 * Linear: groups need a separator between them (none can be split two ways), every repetition is bounded,
 * and a match starts only where no digit, letter, `+`, `.`, `-` or `/` precedes it.
 */
const PHONE = new RegExp(
  String.raw`(?<![\w+.\-/@#$€£%])(?:\+\d{8,15}(?!\d)|(?:\+\d{1,3}|${GROUP})(?:${SEPARATOR}${GROUP}){1,7})(?![\w]|[.\-]\d)`,
  "g",
);

const DATE_YEAR_FIRST = /^(\d{4})([-. \u00a0])(\d{1,2})\2(\d{1,2})$/;
const DATE_YEAR_LAST = /^(\d{1,2})([-. \u00a0])(\d{1,2})\2(\d{2}|\d{4})$/;
const IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const THOUSANDS = /^\d{1,3}([ .\u00a0])\d{3}(?:\1\d{3})+$/;

const isDay = (value: string) => Number(value) >= 1 && Number(value) <= 31;
const isMonth = (value: string) => Number(value) >= 1 && Number(value) <= 12;

function isDate(written: string): boolean {
  const yearFirst = DATE_YEAR_FIRST.exec(written);
  if (yearFirst) return isMonth(yearFirst[3]!) && isDay(yearFirst[4]!);
  const yearLast = DATE_YEAR_LAST.exec(written);
  if (!yearLast) return false;
  const [first, second] = [yearLast[1]!, yearLast[3]!];
  return (isDay(first) && isMonth(second)) || (isMonth(first) && isDay(second));
}

/** ISBN-10/13 written with hyphens: 10 or 13 digits ending in a one-char check group. */
function isIsbn(written: string, digits: string): boolean {
  return /-[\dX]$/.test(written) && (digits.length === 10 || digits.length === 13);
}

function isPhone(written: string): boolean {
  const digits = written.replace(/\D/g, "");
  if (written.startsWith("+")) return digits.length >= 8 && digits.length <= 15;
  if (digits.length < 7 || digits.length > 12) return false;
  const groups = written.split(/\D+/).filter((group) => group.length > 0);
  const trunkPair = groups.length === 2 && /^0\d{1,4}$/.test(groups[0]!) && groups[1]!.length >= 5;
  if (!written.includes("(") && groups.length < 3 && !trunkPair) return false;
  // One single-digit group at most, and only first (`1-800-555-0199`): `1 2 3 4 5 6 7` is a list.
  if (groups.slice(1).some((group) => group.length === 1)) return false;
  return !isDate(written) && !IPV4.test(written) && !THOUSANDS.test(written) && !isIsbn(written, digits);
}

/** Phone numbers in `text`. */
export function findPhones(text: string): GuardSpan[] {
  const spans: GuardSpan[] = [];
  for (const match of text.matchAll(PHONE)) {
    if (isPhone(match[0]))
      spans.push({ start: match.index, end: match.index + match[0].length, kind: "phone" });
  }
  return spans;
}
