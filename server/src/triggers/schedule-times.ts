import { Cron } from "croner";
import { MIN_SCHEDULE_INTERVAL_S } from "@waddle/protocol";
import { ApiError } from "../shared/api-error.js";

/** What a schedule's fire times depend on. */
export interface ScheduleTimes {
  cron: string;
  timezone: string;
}

/** How many upcoming fires the interval check looks at: enough to see a pattern's closest pair. */
const INTERVAL_SAMPLES = 120;

/** A 400 naming the body field to fix, in the shape `parseRequest` answers. */
export function scheduleFieldError(field: "cron" | "timezone", message: string): ApiError {
  return new ApiError("validation_failed", `Fix the field "${field}" of the request body: ${message}`, {
    where: "body",
    issues: [{ path: `$.${field}`, message, code: `invalid_${field}` }],
  });
}

/** True for a time zone this runtime knows (IANA names such as `Europe/Paris`, and `UTC`). */
export function isKnownTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The parsed schedule (croner): five fields, or six with seconds first, in its time zone; a 400 naming
 * `timezone` or `cron` when either does not parse.
 */
export function createSchedule(times: ScheduleTimes): Cron {
  if (!isKnownTimeZone(times.timezone)) {
    throw scheduleFieldError(
      "timezone",
      `"${times.timezone.slice(0, 100)}" is not a known time zone: use an IANA name such as Europe/Paris or UTC.`,
    );
  }
  try {
    return new Cron(times.cron, { timezone: times.timezone, mode: "5-or-6-parts" });
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^CronPattern: /, "") : String(error);
    throw scheduleFieldError(
      "cron",
      `"${times.cron.slice(0, 100)}" is not a cron expression (${reason}): five fields (minute hour day month weekday), or six with seconds first.`,
    );
  }
}

/** The next `count` fire times strictly after `afterMs`, in ms. */
export function getNextFires(schedule: Cron, options: { afterMs: number; count: number }): number[] {
  return schedule.nextRuns(options.count, new Date(options.afterMs)).map((date) => date.getTime());
}

/** The fire time right after `afterMs`, if the schedule has one. */
export function getNextFire(schedule: Cron, afterMs: number): number | undefined {
  return schedule.nextRun(new Date(afterMs))?.getTime();
}

/** The latest fire time at or before `atMs`, if there was one. */
export function getLastFire(schedule: Cron, atMs: number): number | undefined {
  return schedule.previousRuns(1, new Date(atMs + 1))[0]?.getTime();
}

/** The shortest gap, in seconds, between two of the next fires after `fromMs` (undefined: fewer than two). */
export function getShortestInterval(schedule: Cron, fromMs: number): number | undefined {
  const fires = getNextFires(schedule, { afterMs: fromMs, count: INTERVAL_SAMPLES });
  let shortest: number | undefined;
  for (let index = 1; index < fires.length; index++) {
    const gap = (fires[index]! - fires[index - 1]!) / 1000;
    if (shortest === undefined || gap < shortest) shortest = gap;
  }
  return shortest;
}

/**
 * Checks a schedule as the API takes it: it parses, fires at all, and never fires twice within
 * `MIN_SCHEDULE_INTERVAL_S` seconds (among its next fires from `nowMs`). A 400 naming the field otherwise.
 */
export function checkSchedule(times: ScheduleTimes, nowMs: number): Cron {
  const schedule = createSchedule(times);
  if (getNextFire(schedule, nowMs) === undefined) {
    throw scheduleFieldError("cron", `"${times.cron}" never fires: no date matches it.`);
  }
  const shortest = getShortestInterval(schedule, nowMs);
  if (shortest !== undefined && shortest < MIN_SCHEDULE_INTERVAL_S) {
    throw scheduleFieldError(
      "cron",
      `"${times.cron}" fires ${shortest} s apart: a schedule fires at most every ${MIN_SCHEDULE_INTERVAL_S} seconds.`,
    );
  }
  return schedule;
}

/**
 * The tick to fire when a server starts (`catchUp`): with `last`, the latest fire time after `sinceMs` (when
 * the schedule was last set) and at or before `nowMs`; none with `none`. Whether it already fired is the
 * store's to say (its tick claim).
 */
export function getCatchUpTick(options: {
  schedule: Cron;
  catchUp: "none" | "last";
  sinceMs: number;
  nowMs: number;
}): number | undefined {
  if (options.catchUp === "none") return undefined;
  const last = getLastFire(options.schedule, options.nowMs);
  return last !== undefined && last > options.sinceMs ? last : undefined;
}
