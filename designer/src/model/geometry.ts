/** A point in flow (canvas) coordinates. */
export interface XYPosition {
  x: number;
  y: number;
}

/** A rectangle in flow coordinates: its top-left corner and its size. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
