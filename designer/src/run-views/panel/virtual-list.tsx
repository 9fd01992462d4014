import {
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
} from "react";
import { getRowOffsets, getScrollToRow, getVisibleRows } from "./get-visible-rows.js";

interface VirtualListProps {
  count: number;
  rowHeight: number;
  renderRow: (index: number) => ReactNode;
  /** The row kept in view (the selection). */
  activeIndex?: number | null;
  /** Keeps the list scrolled to the end as rows arrive, while the reader is at the end. */
  follow?: boolean;
  onKeyDown?: (event: KeyboardEvent<HTMLDivElement>) => void;
  label: string;
  testId?: string;
  className?: string;
  role?: "listbox" | "list";
  activeDescendant?: string;
  /**
   * Each row's stable key: given, rows may be taller than `rowHeight` (a line that wraps) and are measured
   * once on screen, and each `renderRow` must return exactly one element.
   */
  getRowKey?: (index: number) => string;
}

/**
 * A list that renders only the rows in view (plus overscan), so long run timelines stay cheap. Rows are
 * `rowHeight` tall, or, with `getRowKey`, as tall as they measure (unmeasured ones count as `rowHeight`).
 */
export function VirtualList(props: VirtualListProps): ReactElement {
  const { count, rowHeight, activeIndex, follow, getRowKey } = props;
  const viewport = useRef<HTMLDivElement>(null);
  const windowRef = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(320);
  const atEnd = useRef(true);
  // measured heights by row key; a new wrapper object (same map) when one changed, to render again
  const [sizes, setSizes] = useState(() => ({ heights: new Map<string, number>() }));
  const offsets = useMemo(
    () =>
      getRowKey
        ? getRowOffsets({ count, rowHeight, getHeight: (index) => sizes.heights.get(getRowKey(index)) })
        : undefined,
    [count, rowHeight, getRowKey, sizes],
  );
  const rows = getVisibleRows({ count, rowHeight, scrollTop, viewportHeight: height, offsets });

  // measure the rows on screen (after each render, and when their size changes: a wrap, a narrower panel)
  useLayoutEffect(() => {
    const element = windowRef.current;
    if (!element || !getRowKey) return;
    const measure = () => {
      let changed = false;
      Array.from(element.children).forEach((child, at) => {
        const index = rows.start + at;
        if (index >= count) return;
        const key = getRowKey(index);
        const size = (child as HTMLElement).offsetHeight;
        if (size > 0 && sizes.heights.get(key) !== size) {
          sizes.heights.set(key, size);
          changed = true;
        }
      });
      if (changed) setSizes({ heights: sizes.heights });
    };
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  });

  useLayoutEffect(() => {
    const element = viewport.current;
    if (!element) return;
    setHeight(element.clientHeight || 320);
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight || 320));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // follow new rows while the reader sits at the end
  useLayoutEffect(() => {
    const element = viewport.current;
    if (!element || !follow || !atEnd.current) return;
    element.scrollTop = element.scrollHeight;
    setScrollTop(element.scrollTop);
  }, [count, follow, rows.totalHeight]);

  useEffect(() => {
    const element = viewport.current;
    if (!element || activeIndex === null || activeIndex === undefined || activeIndex < 0) return;
    const next = getScrollToRow({
      index: activeIndex,
      rowHeight,
      scrollTop: element.scrollTop,
      viewportHeight: height,
      offsets,
    });
    if (next !== element.scrollTop) {
      element.scrollTop = next;
      setScrollTop(next);
    }
    // a new measurement alone does not scroll the reader back to the selection
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activeIndex, rowHeight, height]);

  const items: ReactNode[] = [];
  for (let index = rows.start; index < rows.end; index += 1) items.push(props.renderRow(index));

  return (
    <div
      ref={viewport}
      className={`virtual-list${props.className ? ` ${props.className}` : ""}`}
      role={props.role ?? "list"}
      aria-label={props.label}
      aria-activedescendant={props.activeDescendant}
      tabIndex={0}
      data-testid={props.testId}
      data-count={count}
      onKeyDown={props.onKeyDown}
      onScroll={(event) => {
        const element = event.currentTarget;
        atEnd.current = element.scrollTop + element.clientHeight >= element.scrollHeight - rowHeight;
        setScrollTop(element.scrollTop);
      }}
    >
      <div className="virtual-list-spacer" style={{ height: rows.totalHeight }}>
        <div
          ref={windowRef}
          className="virtual-list-window"
          style={{ transform: `translateY(${rows.offsetTop}px)` }}
        >
          {items}
        </div>
      </div>
    </div>
  );
}
