import { describe, expect, it } from "vitest";
import { getPathKey, moveOpenPath, removeOpenPath, toggleOpenPath } from "./open-field-paths.js";

const keys = (...paths: (number | "items")[][]): ReadonlySet<string> => new Set(paths.map(getPathKey));

describe("open field paths", () => {
  it("toggles one row", () => {
    const open = toggleOpenPath(new Set(), [1, "items", 0]);
    expect([...open]).toEqual(["1/items/0"]);
    expect(toggleOpenPath(open, [1, "items", 0]).size).toBe(0);
  });

  it("follows a field moved down twice, with its open children", () => {
    let open = keys([0], [0, 2], [3]);
    open = moveOpenPath({ open, path: [0], delta: 1, siblingCount: 4 });
    expect(open).toEqual(keys([1], [1, 2], [3]));
    open = moveOpenPath({ open, path: [1], delta: 1, siblingCount: 4 });
    expect(open).toEqual(keys([2], [2, 2], [3]));
  });

  it("swaps the open state of two neighbours and leaves other levels alone", () => {
    const open = keys([1, 0], [1, 1, 0], [0]);
    expect(moveOpenPath({ open, path: [1, 0], delta: 1, siblingCount: 2 })).toEqual(
      keys([1, 1], [1, 0, 0], [0]),
    );
  });

  it("ignores a move past either end", () => {
    const open = keys([0]);
    expect(moveOpenPath({ open, path: [0], delta: -1, siblingCount: 2 })).toBe(open);
    expect(moveOpenPath({ open, path: [1], delta: 1, siblingCount: 2 })).toBe(open);
  });

  it("drops a removed field's rows and shifts later siblings up", () => {
    const open = keys([0], [1], [1, "items"], [2], [2, 0]);
    expect(removeOpenPath(open, [1])).toEqual(keys([0], [1], [1, 0]));
  });
});
