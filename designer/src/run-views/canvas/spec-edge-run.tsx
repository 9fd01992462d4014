import type { ReactElement } from "react";
import { useEdgeRunView } from "./use-run-canvas.js";

/**
 * The run's trace over a drawn edge: coloured by how the transition came about (LLM-chosen, auto-seq
 * executed, parallel fan-out, join); a dash flows along it in the latest step, and it pulses again each
 * time it is taken.
 */
export function SpecEdgeRun({ edgeId, path }: { edgeId: string; path: string }): ReactElement | null {
  const run = useEdgeRunView(edgeId);
  if (!run) return null;
  const { edge, active } = run;
  const provenance = edge.last.provenance;
  return (
    <g
      className={`edge-run prov-${provenance}${active ? " is-active" : ""}`}
      data-testid={`edge-run-${edgeId}`}
      data-provenance={provenance}
      data-count={edge.count}
      data-active={active}
    >
      <path d={path} className="edge-run-trace" fill="none" />
      {/* keyed by the transition, so the pulse replays each time the edge is taken */}
      <path key={edge.last.seq} d={path} className="edge-run-pulse" fill="none" />
    </g>
  );
}
