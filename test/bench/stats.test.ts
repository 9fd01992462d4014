import { describe, expect, it } from "vitest";
import { getPercentile, getRelativeIqr, getSummary } from "./stats.js";

describe("getPercentile", () => {
  it("interpolates between the nearest ranks", () => {
    expect(getPercentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(getPercentile([10, 20, 30, 40, 50], 90)).toBe(46);
    expect(getPercentile([10, 20, 30, 40, 50], 25)).toBe(20);
  });

  it("returns the extremes at 0 and 100, and the value of a one-element sample", () => {
    expect(getPercentile([3, 5, 9], 0)).toBe(3);
    expect(getPercentile([3, 5, 9], 100)).toBe(9);
    expect(getPercentile([7], 99)).toBe(7);
  });

  it("refuses an empty sample and a percentile outside [0, 100]", () => {
    expect(() => getPercentile([], 50)).toThrow(RangeError);
    expect(() => getPercentile([1], 101)).toThrow(/\[0, 100\]/);
    expect(() => getPercentile([1], Number.NaN)).toThrow(RangeError);
  });
});

describe("getSummary", () => {
  it("sorts a copy and reports order statistics and the mean", () => {
    const values = [5, 1, 4, 2, 3];
    expect(getSummary(values)).toEqual({ n: 5, min: 1, median: 3, p90: 4.6, p99: 4.96, max: 5, mean: 3 });
    expect(values).toEqual([5, 1, 4, 2, 3]);
  });
});

describe("getRelativeIqr", () => {
  it("is the interquartile range over the median", () => {
    expect(getRelativeIqr([1, 2, 3, 4, 5])).toBe(2 / 3);
    expect(getRelativeIqr([4, 4, 4])).toBe(0);
  });
});
