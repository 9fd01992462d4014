/** The rows of a fixed-row-height list that a viewport shows, plus some overscan either side. */
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

/** Which rows to render for a scroll position; pure, so a timeline of 10,000 entries renders ~30. */
export function getVisibleRows(options: {
  count: number;
  rowHeight: number;
  scrollTop: number;
  viewportHeight: number;
  overscan?: number;
}): VisibleRows {
  const { count, rowHeight, viewportHeight } = options;
  const overscan = options.overscan ?? 6;
  const totalHeight = count * rowHeight;
  if (count === 0 || rowHeight <= 0) return { start: 0, end: 0, offsetTop: 0, totalHeight: 0 };
  const maxScroll = Math.max(0, totalHeight - viewportHeight);
  const scrollTop = Math.min(Math.max(0, options.scrollTop), maxScroll);
  const first = Math.floor(scrollTop / rowHeight);
  const visible = Math.ceil(Math.max(viewportHeight, rowHeight) / rowHeight) + 1;
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, first + visible + overscan);
  return { start, end, offsetTop: start * rowHeight, totalHeight };
}

/** The scrollTop that brings a row into view (unchanged when it already is). */
export function getScrollToRow(options: {
  index: number;
  rowHeight: number;
  scrollTop: number;
  viewportHeight: number;
}): number {
  const { index, rowHeight, scrollTop, viewportHeight } = options;
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewportHeight) return Math.max(0, top + rowHeight - viewportHeight);
  return scrollTop;
}
