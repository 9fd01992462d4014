/** The snooze choices the inbox offers besides a time of one's own. */
export type SnoozeChoice = "15m" | "1h" | "tomorrow";

export const SNOOZE_CHOICES: readonly { choice: SnoozeChoice; label: string }[] = [
  { choice: "15m", label: "15 minutes" },
  { choice: "1h", label: "1 hour" },
  { choice: "tomorrow", label: "Tomorrow, 9:00" },
];

/** The hour of the morning "tomorrow" wakes an item at, in the browser's time zone. */
const MORNING_HOUR = 9;

/** When a snooze choice ends, from `now` (tomorrow: 9:00 the next day, local time). */
export function getSnoozeUntil(choice: SnoozeChoice, now: Date): Date {
  if (choice === "15m") return new Date(now.getTime() + 15 * 60_000);
  if (choice === "1h") return new Date(now.getTime() + 60 * 60_000);
  const morning = new Date(now);
  morning.setDate(morning.getDate() + 1);
  morning.setHours(MORNING_HOUR, 0, 0, 0);
  return morning;
}

/**
 * A time of one's own from a `datetime-local` box (`2026-01-05T17:30`, local time): the ISO time, or why it
 * cannot be used.
 */
export function readCustomSnooze(
  text: string,
  now: Date,
): { ok: true; until: string } | { ok: false; error: string } {
  if (!text.trim()) return { ok: false, error: "Pick a date and time." };
  const until = new Date(text);
  if (Number.isNaN(until.getTime())) return { ok: false, error: "That is not a date and time." };
  if (until.getTime() <= now.getTime()) return { ok: false, error: "Pick a time in the future." };
  return { ok: true, until: until.toISOString() };
}

/** The `datetime-local` value for a time (local, to the minute): the custom box starts an hour ahead. */
export function toDateTimeLocal(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
