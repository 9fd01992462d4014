import type { Rect } from "../model/geometry.js";

/** A React Flow viewport: the flow point at the canvas's top-left corner is (-x / zoom, -y / zoom). */
export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/**
 * The least zoom an automatic fit goes to: tool names (12.5 px) then render at 10 px. Below it names
 * blur into dots, as on an example whose five tools sit in a row (names at 6 px).
 */
export const MIN_READABLE_ZOOM = 0.8;

export interface ReadableViewportOptions {
  /** The canvas's size in screen pixels. */
  width: number;
  height: number;
  /** Room around the content when it fits, as a fraction of the canvas (React Flow's `padding`). */
  padding?: number;
  /** Room in screen pixels between the canvas's edge and content that does not fit. */
  margin?: number;
  /** Screen pixels at the canvas's top that an overlay covers: content that does not fit starts below. */
  insetTop?: number;
  minZoom?: number;
  maxZoom?: number;
}

/**
 * The viewport that shows `bounds` whole if it can do so at a legible zoom, else at that zoom: each
 * axis the content fits in is centred, each it overflows shows its start (the left or top edge, where a
 * left-to-right flow begins), and the user pans for the rest instead of reading 6 px names.
 * The rules: `designer/docs/canvas-readability.md`.
 */
export function getReadableViewport(bounds: Rect, options: ReadableViewportOptions): Viewport {
  const { width, height, padding = 0.2, margin = 32, insetTop = 0 } = options;
  const minZoom = options.minZoom ?? MIN_READABLE_ZOOM;
  const maxZoom = Math.max(options.maxZoom ?? 1.1, minZoom);
  const contentWidth = Math.max(bounds.width, 1);
  const contentHeight = Math.max(bounds.height, 1);
  const padded = Math.min(width / (contentWidth * (1 + padding)), height / (contentHeight * (1 + padding)));
  // padding that would push the zoom under the floor is given up first: the margin is room enough
  const tight = Math.min(
    (width - 2 * margin) / contentWidth,
    (height - 2 * margin - insetTop) / contentHeight,
  );
  const fit = padded >= minZoom ? padded : tight;
  const zoom = Math.min(Math.max(fit, minZoom), maxZoom);
  return {
    x: getAxisOffset({ start: bounds.x, size: contentWidth, screen: width, zoom, margin }),
    y: getAxisOffset({ start: bounds.y, size: contentHeight, screen: height, zoom, margin, insetTop }),
    zoom,
  };
}

/** Centres content that fits on the axis; aligns the start of content that does not with the margin. */
function getAxisOffset(options: {
  start: number;
  size: number;
  screen: number;
  zoom: number;
  margin: number;
  insetTop?: number;
}): number {
  const { start, size, screen, zoom, margin, insetTop = 0 } = options;
  const offset =
    size * zoom <= screen - insetTop ? insetTop + (screen - insetTop - size * zoom) / 2 : insetTop + margin;
  return offset - start * zoom;
}
