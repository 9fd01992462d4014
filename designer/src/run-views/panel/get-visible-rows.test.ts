import { describe, expect, it } from "vitest";
import { getRowOffsets, getScrollToRow, getVisibleRows } from "./get-visible-rows.js";

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

describe("rows of measured heights", () => {
  // rows 2 and 5 wrapped onto more lines: 60 and 44 px instead of 20
  const heights = new Map([
    [2, 60],
    [5, 44],
  ]);
  const offsets = getRowOffsets({ count: 8, rowHeight: 20, getHeight: (index) => heights.get(index) });

  it("start each row below the measured ones", () => {
    expect([...offsets]).toEqual([0, 20, 40, 100, 120, 140, 184, 204, 224]);
  });

  it("render the rows the viewport covers, wrapped ones counted at their height", () => {
    expect(
      getVisibleRows({ count: 8, rowHeight: 20, scrollTop: 100, viewportHeight: 50, overscan: 0, offsets }),
    ).toEqual({ start: 3, end: 6, offsetTop: 100, totalHeight: 224 });
    expect(
      getVisibleRows({ count: 8, rowHeight: 20, scrollTop: 50, viewportHeight: 20, overscan: 1, offsets }),
    ).toEqual({ start: 1, end: 4, offsetTop: 20, totalHeight: 224 });
  });

  it("scroll a tall row whole into view", () => {
    expect(getScrollToRow({ index: 5, rowHeight: 20, scrollTop: 0, viewportHeight: 100, offsets })).toBe(84);
    expect(getScrollToRow({ index: 2, rowHeight: 20, scrollTop: 150, viewportHeight: 100, offsets })).toBe(
      40,
    );
  });
});
