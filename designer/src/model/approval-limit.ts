import { ApprovalPolicy, getFieldBounds, type ParseResult } from "@waddle/protocol";

/** The units the approval time limit is typed in. */
export const APPROVAL_LIMIT_UNITS = [
  { unit: "s", label: "s", seconds: 1, name: "second" },
  { unit: "min", label: "min", seconds: 60, name: "minute" },
  { unit: "h", label: "h", seconds: 3_600, name: "hour" },
] as const;
export type ApprovalLimitUnit = (typeof APPROVAL_LIMIT_UNITS)[number]["unit"];

const BOUNDS = getFieldBounds(ApprovalPolicy).timeoutS;
const MIN_S = BOUNDS.min ?? 1;
const MAX_S = BOUNDS.max ?? 30 * 86_400;

/** The policy a new time limit starts with: reject after an hour (a safe default, and a round number). */
export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = { timeoutS: 3_600, onTimeout: "reject" };

const secondsOf = (unit: ApprovalLimitUnit) =>
  APPROVAL_LIMIT_UNITS.find((entry) => entry.unit === unit)!.seconds;

/** A limit in seconds as a person would type it: in the largest unit that holds it whole. */
export function getApprovalLimitParts(timeoutS: number): { amount: string; unit: ApprovalLimitUnit } {
  for (const entry of [...APPROVAL_LIMIT_UNITS].reverse()) {
    if (timeoutS % entry.seconds === 0) return { amount: String(timeoutS / entry.seconds), unit: entry.unit };
  }
  return { amount: String(timeoutS), unit: "s" };
}

/**
 * Seconds from a typed amount and unit (`1.5` h is 5400 s), or why it is refused: the limit is whole
 * seconds, from 1 second to 30 days, as the spec's schema says.
 */
export function readApprovalLimit(amount: string, unit: ApprovalLimitUnit): ParseResult<number> {
  const text = amount.trim();
  if (text === "") return { ok: false, error: "Enter how long to wait." };
  const value = Number(text);
  if (!Number.isFinite(value)) return { ok: false, error: `"${text}" is not a number.` };
  const seconds = value * secondsOf(unit);
  if (seconds < MIN_S) return { ok: false, error: "Wait at least 1 second." };
  if (seconds > MAX_S) return { ok: false, error: `At most ${MAX_S / 86_400} days (${MAX_S / 3_600} h).` };
  if (!Number.isInteger(Math.round(seconds * 1e6) / 1e6))
    return { ok: false, error: "That is not a whole number of seconds." };
  return { ok: true, value: Math.round(seconds) };
}

/** "1 hour", "90 seconds", "2 minutes": a limit in words, for hints. */
export function formatApprovalLimit(timeoutS: number): string {
  const { amount, unit } = getApprovalLimitParts(timeoutS);
  const name = APPROVAL_LIMIT_UNITS.find((entry) => entry.unit === unit)!.name;
  return `${amount} ${name}${amount === "1" ? "" : "s"}`;
}
