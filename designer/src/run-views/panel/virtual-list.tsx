import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
} from "react";
import { getScrollToRow, getVisibleRows } from "./get-visible-rows.js";

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
}

/** A fixed-row-height list that renders only the rows in view (plus overscan): long run timelines stay cheap. */
export function VirtualList(props: VirtualListProps): ReactElement {
  const { count, rowHeight, activeIndex, follow } = props;
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(320);
  const atEnd = useRef(true);

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
  }, [count, follow]);

  useEffect(() => {
    const element = viewport.current;
    if (!element || activeIndex === null || activeIndex === undefined || activeIndex < 0) return;
    const next = getScrollToRow({
      index: activeIndex,
      rowHeight,
      scrollTop: element.scrollTop,
      viewportHeight: height,
    });
    if (next !== element.scrollTop) {
      element.scrollTop = next;
      setScrollTop(next);
    }
  }, [activeIndex, rowHeight, height]);

  const rows = getVisibleRows({ count, rowHeight, scrollTop, viewportHeight: height });
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
        <div className="virtual-list-window" style={{ transform: `translateY(${rows.offsetTop}px)` }}>
          {items}
        </div>
      </div>
    </div>
  );
}
