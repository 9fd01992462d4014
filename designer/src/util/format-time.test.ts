import { describe, expect, it } from "vitest";
import { formatRelativeTime, formatStartTime } from "./format-time.js";

describe("formatRelativeTime", () => {
  it("reads the age of a list entry", () => {
    const now = Date.parse("2025-03-03T14:05:09Z");
    expect(formatRelativeTime("2025-03-03T14:05:00Z", now)).toBe("just now");
    expect(formatRelativeTime("2025-03-03T14:00:09Z", now)).toBe("5 min ago");
    expect(formatRelativeTime("2025-03-03T11:05:09Z", now)).toBe("3 h ago");
    expect(formatRelativeTime("not a date", now)).toBe("");
  });
});

describe("formatStartTime", () => {
  const now = Date.parse("2025-03-03T18:00:00Z");
  it("shows the time of day for today's runs and the date otherwise", () => {
    expect(formatStartTime("2025-03-03T14:05:09Z", { now, utc: true })).toBe("14:05:09");
    expect(formatStartTime("2025-02-28T09:07:00Z", { now, utc: true })).toBe("Feb 28, 09:07");
    expect(formatStartTime(null, { now })).toBe("");
    expect(formatStartTime("not a date", { now })).toBe("");
  });
});
