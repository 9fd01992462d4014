import type { ReactElement } from "react";

/** Arrowheads for the edge kinds, coloured by CSS variables so they follow the theme. */
export function EdgeMarkers(): ReactElement {
  const marker = (id: string, className: string) => (
    <marker
      id={id}
      viewBox="0 0 10 10"
      refX="9"
      refY="5"
      markerWidth="7"
      markerHeight="7"
      orient="auto-start-reverse"
    >
      <path d="M0 0 L10 5 L0 10 z" className={className} />
    </marker>
  );
  return (
    <svg className="edge-markers" aria-hidden>
      <defs>
        {marker("waddle-arrow-auto_seq", "arrow-auto_seq")}
        {marker("waddle-arrow-order", "arrow-order")}
        {marker("waddle-arrow-join", "arrow-join")}
      </defs>
    </svg>
  );
}
