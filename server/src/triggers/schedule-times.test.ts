import { describe, expect, it } from "vitest";
import { ApiError } from "../shared/api-error.js";
import {
  checkSchedule,
  createSchedule,
  getCatchUpTick,
  getLastFire,
  getNextFires,
  getShortestInterval,
} from "./schedule-times.js";

/** The fake clock: every computation below is given its "now". */
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number[]) => ms.map((value) => new Date(value).toISOString());

function fieldOf(run: () => unknown): { status: number; path: string; message: string } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const issue = (error.details as { issues: { path: string }[] }).issues[0]!;
    return { status: error.status, path: issue.path, message: error.message };
  }
  throw new Error("expected a refusal");
}

describe("fire times", () => {
  it("follow the time zone's wall clock: 09:00 in Paris is 08:00 UTC in winter and 07:00 in summer", () => {
    const schedule = createSchedule({ cron: "0 9 * * 1-5", timezone: "Europe/Paris" });
    // Friday 27 March 2026, before the change to summer time on Sunday 29 March.
    expect(iso(getNextFires(schedule, { afterMs: at("2026-03-27T10:00:00Z"), count: 3 }))).toEqual([
      "2026-03-30T07:00:00.000Z",
      "2026-03-31T07:00:00.000Z",
      "2026-04-01T07:00:00.000Z",
    ]);
    expect(iso(getNextFires(schedule, { afterMs: at("2026-03-26T10:00:00Z"), count: 1 }))).toEqual([
      "2026-03-27T08:00:00.000Z",
    ]);
  });

  it("across spring forward: a fixed time in the skipped hour fires once, when the clock has jumped", () => {
    // 02:30 does not exist in Paris on 29 March 2026 (02:00 → 03:00): it fires at 03:00 CEST that day.
    const schedule = createSchedule({ cron: "30 2 * * *", timezone: "Europe/Paris" });
    expect(iso(getNextFires(schedule, { afterMs: at("2026-03-28T00:00:00Z"), count: 3 }))).toEqual([
      "2026-03-28T01:30:00.000Z",
      "2026-03-29T01:00:00.000Z",
      "2026-03-30T00:30:00.000Z",
    ]);
  });

  it("across fall back: a fixed time fires once, an interval fires in both passes of the repeated hour", () => {
    // On 25 October 2026 Paris goes from 03:00 CEST back to 02:00 CET: 02:00–03:00 happens twice.
    const fixed = createSchedule({ cron: "30 2 * * *", timezone: "Europe/Paris" });
    expect(iso(getNextFires(fixed, { afterMs: at("2026-10-24T12:00:00Z"), count: 2 }))).toEqual([
      "2026-10-25T00:30:00.000Z",
      "2026-10-26T01:30:00.000Z",
    ]);
    const everyHalfHour = createSchedule({ cron: "*/30 * * * *", timezone: "Europe/Paris" });
    const fires = getNextFires(everyHalfHour, { afterMs: at("2026-10-24T23:59:00Z"), count: 6 });
    expect(iso(fires)).toEqual([
      "2026-10-25T00:00:00.000Z", // 02:00 CEST
      "2026-10-25T00:30:00.000Z", // 02:30 CEST
      "2026-10-25T01:00:00.000Z", // 02:00 CET
      "2026-10-25T01:30:00.000Z", // 02:30 CET
      "2026-10-25T02:00:00.000Z", // 03:00 CET
      "2026-10-25T02:30:00.000Z",
    ]);
    // Thirty minutes apart in real time all along: no tick is lost or doubled by the change.
    expect(new Set(fires.slice(1).map((value, index) => value - fires[index]!))).toEqual(
      new Set([1_800_000]),
    );
  });

  it("takes six fields with seconds first, and names the last fire at or before a time", () => {
    const schedule = createSchedule({ cron: "*/15 * * * * *", timezone: "UTC" });
    expect(iso(getNextFires(schedule, { afterMs: at("2026-01-01T00:00:15Z"), count: 2 }))).toEqual([
      "2026-01-01T00:00:30.000Z",
      "2026-01-01T00:00:45.000Z",
    ]);
    expect(iso([getLastFire(schedule, at("2026-01-01T00:00:15Z"))!])).toEqual(["2026-01-01T00:00:15.000Z"]);
    expect(iso([getLastFire(schedule, at("2026-01-01T00:00:14.999Z"))!])).toEqual([
      "2026-01-01T00:00:00.000Z",
    ]);
    expect(getShortestInterval(schedule, at("2026-01-01T00:00:00Z"))).toBe(15);
  });
});

describe("checking a schedule", () => {
  const now = at("2026-06-01T12:00:00Z");

  it("refuses an invalid cron or an unknown time zone with a 400 naming the field", () => {
    expect(fieldOf(() => checkSchedule({ cron: "61 * * * *", timezone: "UTC" }, now))).toMatchObject({
      status: 400,
      path: "$.cron",
    });
    expect(fieldOf(() => checkSchedule({ cron: "* * * * * * *", timezone: "UTC" }, now)).path).toBe("$.cron");
    expect(fieldOf(() => checkSchedule({ cron: "every day", timezone: "UTC" }, now)).path).toBe("$.cron");
    const zone = fieldOf(() => checkSchedule({ cron: "0 9 * * *", timezone: "Mars/Olympus_Mons" }, now));
    expect(zone).toMatchObject({ status: 400, path: "$.timezone" });
    expect(zone.message).toContain("Mars/Olympus_Mons");
  });

  it("refuses a schedule that fires more often than every 10 seconds, or never", () => {
    const fast = fieldOf(() => checkSchedule({ cron: "*/5 * * * * *", timezone: "UTC" }, now));
    expect(fast).toMatchObject({ status: 400, path: "$.cron" });
    expect(fast.message).toContain("every 10 seconds");
    // Two fires 5 s apart once a minute: the closest pair counts, not the average.
    expect(fieldOf(() => checkSchedule({ cron: "0,5 * * * * *", timezone: "UTC" }, now)).path).toBe("$.cron");
    expect(fieldOf(() => checkSchedule({ cron: "0 0 30 2 *", timezone: "UTC" }, now)).message).toContain(
      "never fires",
    );
    expect(() => checkSchedule({ cron: "*/10 * * * * *", timezone: "UTC" }, now)).not.toThrow();
    expect(() => checkSchedule({ cron: "0 9 * * 1-5", timezone: "America/New_York" }, now)).not.toThrow();
  });
});

describe("catch-up at start", () => {
  const schedule = createSchedule({ cron: "0 9 * * *", timezone: "Europe/Paris" });

  it("fires the last tick missed since the schedule was set with catchUp last, none with none", () => {
    // Set on Monday; the server was down from Tuesday evening to Thursday noon: Wednesday and Thursday 09:00
    // were missed, and only the last one fires.
    const since = at("2026-06-01T10:00:00Z");
    const nowMs = at("2026-06-04T10:00:00Z");
    expect(iso([getCatchUpTick({ schedule, catchUp: "last", sinceMs: since, nowMs })!])).toEqual([
      "2026-06-04T07:00:00.000Z",
    ]);
    expect(getCatchUpTick({ schedule, catchUp: "none", sinceMs: since, nowMs })).toBeUndefined();
  });

  it("fires nothing for ticks before the schedule was set", () => {
    const since = at("2026-06-04T07:30:00Z");
    expect(
      getCatchUpTick({ schedule, catchUp: "last", sinceMs: since, nowMs: at("2026-06-04T10:00:00Z") }),
    ).toBeUndefined();
    // The next day's tick, once it has passed, is one to catch up.
    expect(
      iso([
        getCatchUpTick({ schedule, catchUp: "last", sinceMs: since, nowMs: at("2026-06-05T07:00:00Z") })!,
      ]),
    ).toEqual(["2026-06-05T07:00:00.000Z"]);
  });

  it("across a DST change, catches up the tick by the wall clock of that day", () => {
    // Down over the night of 28–29 March (spring forward): the 09:00 of the 29th is 07:00 UTC.
    const tick = getCatchUpTick({
      schedule,
      catchUp: "last",
      sinceMs: at("2026-03-27T09:00:00Z"),
      nowMs: at("2026-03-29T12:00:00Z"),
    });
    expect(iso([tick!])).toEqual(["2026-03-29T07:00:00.000Z"]);
  });
});
