import { describe, expect, it } from "vitest";
import { findTextSpans, getSliceWindows } from "./slice-windows.js";
import { keepFirstSpans, type TextMatcher } from "./text-matcher.js";

describe("getSliceWindows", () => {
  it("is one window for a text no longer than a slice", () => {
    expect(getSliceWindows(10, 10, 3)).toEqual([{ start: 0, end: 10, ownStart: 0, ownEnd: 10 }]);
  });

  it("owns consecutive slices and reads an overlap on both sides, within the text", () => {
    expect(getSliceWindows(25, 10, 3)).toEqual([
      { start: 0, end: 13, ownStart: 0, ownEnd: 10 },
      { start: 7, end: 23, ownStart: 10, ownEnd: 20 },
      { start: 17, end: 25, ownStart: 20, ownEnd: 25 },
    ]);
  });
});

describe("findTextSpans", () => {
  it("counts a span seen by two windows once, in the window where it starts", () => {
    const matcher: TextMatcher = {
      maxSpanChars: 4,
      findSpans: (text) =>
        [...text.matchAll(/abcd/g)].map((match) => ({ start: match.index, end: match.index + 4, kind: "x" })),
      getMask: () => "[x]",
    };
    const text = `${"-".repeat(8)}abcd${"-".repeat(8)}abcd`;
    expect(findTextSpans(text, matcher, 10)).toEqual([
      { start: 8, end: 12, kind: "x" },
      { start: 20, end: 24, kind: "x" },
    ]);
  });
});

describe("keepFirstSpans", () => {
  it("sorts, drops overlaps, and lets a better rank replace an overlapping span", () => {
    const spans = [
      { start: 5, end: 9, kind: "b" },
      { start: 0, end: 3, kind: "a" },
      { start: 2, end: 6, kind: "c" },
    ];
    expect(keepFirstSpans(spans)).toEqual([
      { start: 0, end: 3, kind: "a" },
      { start: 5, end: 9, kind: "b" },
    ]);
    const rank = (span: { kind: string }) => (span.kind === "c" ? 0 : 1);
    expect(keepFirstSpans(spans, rank)).toEqual([{ start: 2, end: 6, kind: "c" }]);
  });
});
