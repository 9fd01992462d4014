import type { ReactElement } from "react";
import { ArrowMarker } from "../components/arrow-marker.js";

/** Arrowheads for the edge kinds, coloured by CSS variables so they follow the theme. */
export function EdgeMarkers(): ReactElement {
  return (
    <svg className="edge-markers" aria-hidden>
      <defs>
        <ArrowMarker id="waddle-arrow-auto_seq" className="arrow-auto_seq" />
        <ArrowMarker id="waddle-arrow-order" className="arrow-order" />
        <ArrowMarker id="waddle-arrow-join" className="arrow-join" />
      </defs>
    </svg>
  );
}
