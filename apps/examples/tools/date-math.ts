import { defineTool } from "@waddle/planner";
import { z } from "zod";
import { describeInstant, InstantSchema, TimeZone } from "./clock.js";

const DateInput = z
  .string()
  .min(1)
  .max(64)
  .refine(
    (text) => !Number.isNaN(Date.parse(text)),
    "must be an ISO 8601 date such as 2026-03-01 or 2026-03-01T09:30:00Z",
  )
  .describe("ISO 8601 date or date-time");

const MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 } as const;

/** Adds calendar months and years in UTC, then fixed durations; the day of month is clamped (Jan 31 + 1 month = Feb 28/29). */
export function addToDate(
  date: Date,
  amount: {
    years?: number;
    months?: number;
    weeks?: number;
    days?: number;
    hours?: number;
    minutes?: number;
  },
): Date {
  const result = new Date(date.getTime());
  const months = (amount.years ?? 0) * 12 + (amount.months ?? 0);
  if (months !== 0) {
    const day = result.getUTCDate();
    result.setUTCDate(1);
    result.setUTCMonth(result.getUTCMonth() + months);
    const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
    result.setUTCDate(Math.min(day, lastDay));
  }
  const fixed =
    (amount.weeks ?? 0) * MS.week +
    (amount.days ?? 0) * MS.day +
    (amount.hours ?? 0) * MS.hour +
    (amount.minutes ?? 0) * MS.minute;
  return new Date(result.getTime() + fixed);
}

/** The time between two instants in several units (negative when `to` is earlier). */
export function diffDates(from: Date, to: Date) {
  const milliseconds = to.getTime() - from.getTime();
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    milliseconds,
    minutes: round(milliseconds / MS.minute),
    hours: round(milliseconds / MS.hour),
    days: round(milliseconds / MS.day),
    weeks: round(milliseconds / MS.week),
    businessDays: countBusinessDays(from, to),
  };
}

function countBusinessDays(from: Date, to: Date): number {
  const sign = to >= from ? 1 : -1;
  const [start, end] = sign === 1 ? [from, to] : [to, from];
  const cursor = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate()));
  const last = Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate());
  let count = 0;
  // Whole days after the start day up to and including the end day; capped so a wild input stays cheap.
  for (let steps = 0; cursor.getTime() < last && steps < 366 * 200; steps += 1) {
    cursor.setUTCDate(cursor.getUTCDate() + 1);
    const weekday = cursor.getUTCDay();
    if (weekday !== 0 && weekday !== 6) count += 1;
  }
  return sign * count;
}

const Amount = z.number().min(-100_000).max(100_000).optional();

/** Shifts a date by calendar and clock amounts. */
export const dateAdd = defineTool({
  name: "date_add",
  desc: "Add (or subtract, with negative numbers) years, months, weeks, days, hours and minutes to a date; months clamp to the month's last day.",
  args: z.object({
    date: DateInput,
    years: Amount,
    months: Amount,
    weeks: Amount,
    days: Amount,
    hours: Amount,
    minutes: Amount,
    timeZone: TimeZone,
  }),
  out: InstantSchema,
  sideEffects: "pure",
  tags: ["time"],
  latencyHintMs: 1,
  run: ({ date, timeZone, ...amount }) => describeInstant(addToDate(new Date(date), amount), timeZone),
});

/** The time between two dates, including business days. */
export const dateDiff = defineTool({
  name: "date_diff",
  desc: "The time from one date to another in milliseconds, minutes, hours, days and weeks, and the business days (Mon–Fri) between them.",
  args: z.object({ from: DateInput, to: DateInput }),
  out: z.object({
    milliseconds: z.number(),
    minutes: z.number(),
    hours: z.number(),
    days: z.number(),
    weeks: z.number(),
    businessDays: z.int(),
  }),
  sideEffects: "pure",
  tags: ["time"],
  latencyHintMs: 1,
  run: ({ from, to }) => diffDates(new Date(from), new Date(to)),
});
