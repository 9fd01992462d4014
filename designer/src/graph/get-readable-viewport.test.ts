import { describe, expect, it } from "vitest";
import { getReadableViewport, MIN_READABLE_ZOOM } from "./get-readable-viewport.js";

/** The canvas between the side panels at the e2e viewport (1440 x 900). */
const CANVAS = { width: 788, height: 848 };

describe("getReadableViewport", () => {
  it("fits and centres content that fits at a legible zoom, as React Flow's fitView does", () => {
    const viewport = getReadableViewport({ x: 0, y: 0, width: 620, height: 292 }, CANVAS);
    expect(viewport.zoom).toBeCloseTo(788 / (620 * 1.2));
    expect(viewport.x).toBeCloseTo((788 - 620 * viewport.zoom) / 2);
    expect(viewport.y).toBeCloseTo((848 - 292 * viewport.zoom) / 2);
  });

  it("never zooms in past the maximum on a small agent", () => {
    const viewport = getReadableViewport({ x: 100, y: 50, width: 240, height: 92 }, CANVAS);
    expect(viewport.zoom).toBe(1.1);
    // centred: the content's middle is the canvas's middle
    expect(viewport.x + (100 + 120) * 1.1).toBeCloseTo(788 / 2);
    expect(viewport.y + (50 + 46) * 1.1).toBeCloseTo(848 / 2);
  });

  it("drops the padding before it drops under the legible zoom", () => {
    // 840 wide: the 20% padding would need zoom 0.78, a 32 px margin allows 0.86
    const viewport = getReadableViewport({ x: 0, y: 80, width: 840, height: 92 }, CANVAS);
    expect(viewport.zoom).toBeCloseTo((788 - 64) / 840);
    expect(viewport.zoom).toBeGreaterThanOrEqual(MIN_READABLE_ZOOM);
  });

  it("keeps a long row at the legible zoom and shows where it starts (the rest is a pan away)", () => {
    // five tools in a row, 1440 wide: fitting it whole would need zoom 0.46 (names at 6 px)
    const viewport = getReadableViewport({ x: 0, y: 100, width: 1440, height: 92 }, CANVAS);
    expect(viewport.zoom).toBe(MIN_READABLE_ZOOM);
    expect(viewport.x).toBe(32); // the first tool's left edge, a margin from the canvas's edge
    expect(viewport.y + (100 + 46) * MIN_READABLE_ZOOM).toBeCloseTo(848 / 2); // the row stays centred
  });

  it("starts a large grid at its top-left corner", () => {
    const viewport = getReadableViewport({ x: -24, y: -48, width: 3_840, height: 4_000 }, CANVAS);
    expect(viewport).toEqual({ x: 32 + 24 * MIN_READABLE_ZOOM, y: 32 + 48 * MIN_READABLE_ZOOM, zoom: 0.8 });
  });

  it("centres content at the floor zoom when it fits there but not with any margin", () => {
    const viewport = getReadableViewport({ x: 0, y: 0, width: 940, height: 420 }, CANVAS);
    expect(viewport.zoom).toBe(MIN_READABLE_ZOOM);
    expect(viewport.x).toBeCloseTo((788 - 940 * 0.8) / 2);
  });

  it("takes other floors and ceilings", () => {
    const bounds = { x: 0, y: 0, width: 4_000, height: 100 };
    expect(getReadableViewport(bounds, { ...CANVAS, minZoom: 0.1 }).zoom).toBeCloseTo(788 / (4_000 * 1.2));
    expect(getReadableViewport({ ...bounds, width: 10 }, { ...CANVAS, maxZoom: 2 }).zoom).toBe(2);
  });

  it("keeps content clear of an overlay along the top (the canvas legend)", () => {
    const tall = getReadableViewport(
      { x: 0, y: 0, width: 3_000, height: 3_000 },
      { ...CANVAS, insetTop: 64 },
    );
    expect(tall.y).toBe(64 + 32);
    const row = getReadableViewport({ x: 0, y: 0, width: 1_440, height: 92 }, { ...CANVAS, insetTop: 64 });
    expect(row.y + 46 * row.zoom).toBeCloseTo(64 + (848 - 64) / 2); // centred in what is left
  });
});
