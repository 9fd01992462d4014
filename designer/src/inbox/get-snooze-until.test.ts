import { describe, expect, it } from "vitest";
import { getSnoozeUntil, readCustomSnooze, toDateTimeLocal } from "./get-snooze-until.js";

// local times: the snooze choices are the browser's, whatever the test machine's zone
const now = new Date(2026, 0, 5, 17, 40, 12);

describe("getSnoozeUntil", () => {
  it("snoozes 15 minutes, an hour, or until 9:00 the next morning", () => {
    expect(getSnoozeUntil("15m", now).getTime() - now.getTime()).toBe(15 * 60_000);
    expect(getSnoozeUntil("1h", now).getTime() - now.getTime()).toBe(3_600_000);
    expect(getSnoozeUntil("tomorrow", now)).toEqual(new Date(2026, 0, 6, 9, 0, 0, 0));
    // the last day of a month goes to the first of the next
    expect(getSnoozeUntil("tomorrow", new Date(2026, 0, 31, 23, 0))).toEqual(new Date(2026, 1, 1, 9, 0));
  });
});

describe("readCustomSnooze", () => {
  it("reads a local date and time from the picker", () => {
    expect(readCustomSnooze("2026-01-06T08:30", now)).toEqual({
      ok: true,
      until: new Date(2026, 0, 6, 8, 30).toISOString(),
    });
  });

  it("refuses an empty box, nonsense and the past, saying what to do", () => {
    expect(readCustomSnooze("", now)).toEqual({ ok: false, error: "Pick a date and time." });
    expect(readCustomSnooze("soon", now)).toEqual({ ok: false, error: "That is not a date and time." });
    expect(readCustomSnooze("2026-01-05T17:00", now)).toEqual({
      ok: false,
      error: "Pick a time in the future.",
    });
  });

  it("writes the picker's value for a time, to the minute", () => {
    expect(toDateTimeLocal(new Date(2026, 0, 5, 8, 5, 59))).toBe("2026-01-05T08:05");
  });
});
