import type { ReactElement } from "react";

/** An SVG arrowhead for edges (`url(#id)`), coloured by a CSS class so that it follows the theme. */
export function ArrowMarker({ id, className }: { id: string; className: string }): ReactElement {
  return (
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
}
