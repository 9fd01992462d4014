import { describe, expect, it } from "vitest";
import { getLayoutColumns, getWrappedPositions, type LayoutBox } from "./wrap-layout-rows.js";

const SIZE = { width: 240, height: 92 };
/** A chain of `count` tools in one row, 320 apart (ELK's layers). */
const chain = (count: number): LayoutBox[] =>
  Array.from({ length: count }, (_, index) => ({ key: `t${index}`, x: 40 + index * 320, y: 40, ...SIZE }));
const VIEW = { width: 788, height: 848 };
const OPTIONS = { view: VIEW, targetZoom: 0.9, rowGap: 80 };

/** Groups positions into rows by their y, each row's x in order. */
function getRows(positions: Record<string, { x: number; y: number }>): { y: number; xs: number[] }[] {
  const byY = new Map<number, number[]>();
  for (const position of Object.values(positions))
    byY.set(position.y, [...(byY.get(position.y) ?? []), position.x]);
  return [...byY].sort(([a], [b]) => a - b).map(([y, xs]) => ({ y, xs: xs.sort((a, b) => a - b) }));
}

describe("wrapping a long chain into rows", () => {
  it("finds ELK's columns: boxes whose spans overlap share one", () => {
    const boxes: LayoutBox[] = [
      { key: "a", x: 0, y: 0, ...SIZE },
      { key: "b", x: 320, y: 0, ...SIZE },
      { key: "c", x: 330, y: 200, ...SIZE },
      { key: "frame", x: 640, y: 0, width: 300, height: 400 },
    ];
    expect(getLayoutColumns(boxes).map((column) => column.map((box) => box.key))).toEqual([
      ["a"],
      ["b", "c"],
      ["frame"],
    ]);
  });

  it.each([5, 10])("lays a %i-tool chain out in rows within the view's width, in reading order", (count) => {
    const positions = getWrappedPositions(chain(count), OPTIONS);
    const rows = getRows(positions);
    expect(rows.length).toBeGreaterThan(1);
    const right = Math.max(...Object.values(positions).map((position) => position.x + SIZE.width));
    const bottom = Math.max(...Object.values(positions).map((position) => position.y + SIZE.height));
    const left = Math.min(...Object.values(positions).map((position) => position.x));
    const top = Math.min(...Object.values(positions).map((position) => position.y));
    // the whole agent fits the canvas at a zoom where 12.5 px names render at 10 px or more
    const zoom = Math.min((VIEW.width - 64) / (right - left), (VIEW.height - 64) / (bottom - top));
    expect(zoom * 12.5).toBeGreaterThanOrEqual(10);
    // every row starts at the left edge, keeps the 320 px step and sits below the previous one
    for (const [index, row] of rows.entries()) {
      expect(row.xs[0]).toBe(40);
      row.xs.forEach((x, column) => expect(x).toBe(40 + column * 320));
      if (index > 0) expect(row.y - (rows[index - 1]?.y ?? 0)).toBe(SIZE.height + 80);
    }
    // reading order: t0, t1, … run left to right, then on to the next row
    const order = Object.entries(positions)
      .sort(([, a], [, b]) => a.y - b.y || a.x - b.x)
      .map(([key]) => key);
    expect(order).toEqual(chain(count).map((box) => box.key));
  });

  it("keeps a chain that fits in one row, and wraps less on a wider canvas", () => {
    expect(getRows(getWrappedPositions(chain(2), OPTIONS))).toHaveLength(1);
    const narrow = getRows(getWrappedPositions(chain(8), OPTIONS)).length;
    const wide = getRows(
      getWrappedPositions(chain(8), { ...OPTIONS, view: { width: 1800, height: 848 } }),
    ).length;
    expect(wide).toBeLessThan(narrow);
  });

  it("gives the most readable rows when nothing reaches the target zoom", () => {
    const positions = getWrappedPositions(chain(30), OPTIONS);
    const rows = getRows(positions);
    // a square-ish block, not one endless row or one endless column
    expect(rows.length).toBeGreaterThan(2);
    expect(rows[0]?.xs.length).toBeGreaterThan(1);
  });
});
