import { describe, expect, it } from "vitest";
import { formatClock, formatCost, formatCount, formatDelta, formatDuration } from "./format-metrics.js";

describe("formatDuration", () => {
  it("reads at every scale", () => {
    expect(formatDuration(0)).toBe("0 ms");
    expect(formatDuration(850.4)).toBe("850 ms");
    expect(formatDuration(4210)).toBe("4.2 s");
    expect(formatDuration(42_400)).toBe("42 s");
    expect(formatDuration(185_000)).toBe("3 m 05 s");
    expect(formatDuration(3_720_000)).toBe("1 h 02 m");
  });
  it("says unknown with a dash", () => {
    expect(formatDuration(null)).toBe("—");
    expect(formatDuration(undefined)).toBe("—");
    expect(formatDuration(Number.NaN)).toBe("—");
    expect(formatDuration(-5)).toBe("—");
  });
});

describe("formatClock", () => {
  it("shows minutes, seconds and tenths", () => {
    expect(formatClock(0)).toBe("0:00.0");
    expect(formatClock(4250)).toBe("0:04.2");
    expect(formatClock(62_000)).toBe("1:02.0");
    expect(formatClock(3_723_000)).toBe("1:02:03");
    expect(formatClock(-1)).toBe("0:00.0");
  });
});

describe("formatCost", () => {
  it("keeps enough digits to tell cheap runs apart", () => {
    expect(formatCost(0)).toBe("$0");
    expect(formatCost(0.00004)).toBe("<$0.0001");
    expect(formatCost(0.0004)).toBe("$0.0004");
    expect(formatCost(0.0123)).toBe("$0.012");
    expect(formatCost(1.256)).toBe("$1.26");
    expect(formatCost(-0.5)).toBe("-$0.500");
    expect(formatCost(undefined)).toBe("—");
  });
});

describe("formatCount", () => {
  it("shortens thousands and millions", () => {
    expect(formatCount(980)).toBe("980");
    expect(formatCount(1000)).toBe("1k");
    expect(formatCount(1250)).toBe("1.3k");
    expect(formatCount(12_400)).toBe("12k");
    expect(formatCount(3_100_000)).toBe("3.1M");
    expect(formatCount(-1500)).toBe("-1.5k");
  });
});

describe("formatDelta", () => {
  it("signs the difference and calls lower better", () => {
    expect(formatDelta(3, "count")).toEqual({ text: "+3", tone: "worse" });
    expect(formatDelta(-1500, "count")).toEqual({ text: "-1.5k", tone: "better" });
    expect(formatDelta(0.004, "cost")).toEqual({ text: "+$0.0040", tone: "worse" });
    expect(formatDelta(-850, "duration")).toEqual({ text: "-850 ms", tone: "better" });
    expect(formatDelta(0, "count")).toEqual({ text: "±0", tone: "same" });
    expect(formatDelta(0.2, "duration")).toEqual({ text: "±0", tone: "same" });
  });
});
