/** The rows of a virtual list that a viewport shows, plus some overscan either side. */
export interface VisibleRows {
  /** First row to render (inclusive). */
  start: number;
  /** Row after the last one to render (exclusive). */
  end: number;
  /** Where the first rendered row sits, from the top of the list. */
  offsetTop: number;
  /** Height of the whole list, so that the scrollbar is right. */
  totalHeight: number;
}

/**
 * Where each row starts (`count + 1` offsets, the last one the list's height): a row measured on screen
 * keeps its height (a long line that wraps), the others the estimate `rowHeight`.
 */
export function getRowOffsets(options: {
  count: number;
  rowHeight: number;
  getHeight?: (index: number) => number | undefined;
}): Float64Array {
  const { count, rowHeight, getHeight } = options;
  const offsets = new Float64Array(count + 1);
  for (let index = 0; index < count; index += 1)
    offsets[index + 1] = offsets[index]! + (getHeight?.(index) ?? rowHeight);
  return offsets;
}

/** The row at a distance from the top: the last one starting at or above it (binary search). */
function getRowAt(offsets: ArrayLike<number>, count: number, top: number): number {
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (offsets[middle]! <= top) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * Which rows to render for a scroll position; pure, so a timeline of 10,000 entries renders ~30. Rows are
 * `rowHeight` tall unless `offsets` (`getRowOffsets`) says otherwise.
 */
export function getVisibleRows(options: {
  count: number;
  rowHeight: number;
  scrollTop: number;
  viewportHeight: number;
  overscan?: number;
  offsets?: ArrayLike<number>;
}): VisibleRows {
  const { count, rowHeight, viewportHeight } = options;
  const overscan = options.overscan ?? 6;
  if (count === 0 || rowHeight <= 0) return { start: 0, end: 0, offsetTop: 0, totalHeight: 0 };
  const offsets = options.offsets ?? getRowOffsets({ count, rowHeight });
  const totalHeight = offsets[count]!;
  const maxScroll = Math.max(0, totalHeight - viewportHeight);
  const scrollTop = Math.min(Math.max(0, options.scrollTop), maxScroll);
  const first = getRowAt(offsets, count, scrollTop);
  const last = getRowAt(offsets, count, scrollTop + Math.max(viewportHeight, rowHeight));
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, last + 1 + overscan);
  return { start, end, offsetTop: offsets[start]!, totalHeight };
}

/** The scrollTop that brings a row into view (unchanged when it already is). */
export function getScrollToRow(options: {
  index: number;
  rowHeight: number;
  scrollTop: number;
  viewportHeight: number;
  offsets?: ArrayLike<number>;
}): number {
  const { index, rowHeight, scrollTop, viewportHeight, offsets } = options;
  const top = offsets ? (offsets[index] ?? 0) : index * rowHeight;
  const bottom = offsets ? (offsets[index + 1] ?? top + rowHeight) : top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight);
  return scrollTop;
}
