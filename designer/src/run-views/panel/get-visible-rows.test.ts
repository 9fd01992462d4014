import { describe, expect, it } from "vitest";
import { getScrollToRow, getVisibleRows } from "./get-visible-rows.js";

describe("getVisibleRows", () => {
  it("renders only the rows in view plus the overscan", () => {
    expect(
      getVisibleRows({ count: 10_000, rowHeight: 20, scrollTop: 2000, viewportHeight: 200, overscan: 5 }),
    ).toEqual({ start: 95, end: 116, offsetTop: 1900, totalHeight: 200_000 });
  });

  it("clamps at both ends", () => {
    expect(getVisibleRows({ count: 3, rowHeight: 20, scrollTop: -50, viewportHeight: 400 })).toEqual({
      start: 0,
      end: 3,
      offsetTop: 0,
      totalHeight: 60,
    });
    const bottom = getVisibleRows({
      count: 100,
      rowHeight: 10,
      scrollTop: 99_999,
      viewportHeight: 100,
      overscan: 0,
    });
    expect(bottom.end).toBe(100);
    expect(bottom.start).toBe(90);
  });

  it("renders nothing for an empty list", () => {
    expect(getVisibleRows({ count: 0, rowHeight: 20, scrollTop: 0, viewportHeight: 100 })).toEqual({
      start: 0,
      end: 0,
      offsetTop: 0,
      totalHeight: 0,
    });
  });
});

describe("getScrollToRow", () => {
  it("scrolls just enough to show a row", () => {
    expect(getScrollToRow({ index: 2, rowHeight: 20, scrollTop: 100, viewportHeight: 100 })).toBe(40);
    expect(getScrollToRow({ index: 10, rowHeight: 20, scrollTop: 0, viewportHeight: 100 })).toBe(120);
    expect(getScrollToRow({ index: 6, rowHeight: 20, scrollTop: 100, viewportHeight: 100 })).toBe(100);
  });
});
