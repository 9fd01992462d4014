import type { Rect, XYPosition } from "../model/geometry.js";

/** A top-level box of a laid-out graph (a tool, or a group frame with its members inside). */
export interface LayoutBox extends Rect {
  key: string;
}

export interface WrapOptions {
  /** The canvas the agent should fit, in screen pixels. */
  view: { width: number; height: number };
  /** The zoom wrapping aims for: fewer, longer rows as long as the agent still fits at this zoom. */
  targetZoom: number;
  /** Flow pixels between one row and the next (room for edges that run back to the next row's start). */
  rowGap: number;
  /** Screen pixels kept free round the agent when it fits (as `getReadableViewport`'s margin). */
  margin?: number;
}

/**
 * The columns of a left-to-right layout: boxes whose horizontal spans overlap share a column (ELK's
 * layers), in order from left to right.
 */
export function getLayoutColumns(boxes: readonly LayoutBox[]): LayoutBox[][] {
  const sorted = [...boxes].sort((a, b) => a.x - b.x || a.y - b.y);
  const columns: { right: number; boxes: LayoutBox[] }[] = [];
  for (const box of sorted) {
    const last = columns.at(-1);
    if (last && box.x < last.right) {
      last.boxes.push(box);
      last.right = Math.max(last.right, box.x + box.width);
    } else columns.push({ right: box.x + box.width, boxes: [box] });
  }
  return columns.map((column) => column.boxes);
}

interface Arrangement {
  rows: LayoutBox[][][];
  width: number;
  height: number;
}

function getSpan(boxes: readonly LayoutBox[]): { x: number; y: number; right: number; bottom: number } {
  return {
    x: Math.min(...boxes.map((box) => box.x)),
    y: Math.min(...boxes.map((box) => box.y)),
    right: Math.max(...boxes.map((box) => box.x + box.width)),
    bottom: Math.max(...boxes.map((box) => box.y + box.height)),
  };
}

function arrange(columns: readonly LayoutBox[][], perRow: number, rowGap: number): Arrangement {
  const rows: LayoutBox[][][] = [];
  for (let start = 0; start < columns.length; start += perRow)
    rows.push(columns.slice(start, start + perRow));
  const spans = rows.map((row) => getSpan(row.flat()));
  const width = Math.max(...spans.map((span) => span.right - span.x));
  const height = spans.reduce((sum, span) => sum + span.bottom - span.y, 0) + rowGap * (rows.length - 1);
  return { rows, width, height };
}

/**
 * Wraps a left-to-right layout into rows, as text wraps into lines, so that a long chain fits the canvas
 * at a readable zoom: the fewest rows whose bounds fit `view` at `targetZoom` or more, else the rows that
 * give the largest zoom. Columns keep their order and spacing; each row starts at the layout's left edge
 * and sits `rowGap` below the one before. Returns the new top-left corner of every box.
 */
export function getWrappedPositions(
  boxes: readonly LayoutBox[],
  options: WrapOptions,
): Record<string, XYPosition> {
  const { view, targetZoom, rowGap, margin = 32 } = options;
  const columns = getLayoutColumns(boxes);
  if (columns.length === 0) return {};
  const zoomOf = (arrangement: Arrangement) =>
    Math.min((view.width - 2 * margin) / arrangement.width, (view.height - 2 * margin) / arrangement.height);
  let best: Arrangement | null = null;
  for (let perRow = columns.length; perRow >= 1; perRow--) {
    const candidate = arrange(columns, perRow, rowGap);
    if (zoomOf(candidate) >= targetZoom) {
      best = candidate;
      break;
    }
    if (best === null || zoomOf(candidate) > zoomOf(best)) best = candidate;
  }
  const origin = getSpan(boxes);
  const positions: Record<string, XYPosition> = {};
  let top = origin.y;
  for (const row of best?.rows ?? []) {
    const span = getSpan(row.flat());
    for (const box of row.flat())
      positions[box.key] = { x: origin.x + box.x - span.x, y: top + box.y - span.y };
    top += span.bottom - span.y + rowGap;
  }
  return positions;
}
