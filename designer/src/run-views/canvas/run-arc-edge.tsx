import { BaseEdge, EdgeLabelRenderer, type EdgeProps } from "@xyflow/react";
import { memo, type ReactElement } from "react";
import { ArrowMarker } from "../../components/arrow-marker.js";
import type { RunArcFlowEdge } from "../../graph/flow-types.js";
import type { TransitionProvenance } from "../../model/transition-provenance.js";
import { getArcPath } from "./get-arc-path.js";

const PROVENANCE_LABELS: Record<TransitionProvenance, string> = {
  llm: "chosen by the LLM",
  auto_seq: "auto-seq",
  parallel: "parallel fan-out",
  join: "join",
  resume: "after the pause",
  system: "by the planner",
};

/** A transition the run took that no drawn edge covers, shown only while the run is. */
export const RunArcEdge = memo(function RunArcEdge(props: EdgeProps<RunArcFlowEdge>): ReactElement {
  const { path, labelX, labelY } = getArcPath(props);
  const data = props.data;
  const provenance = data?.provenance ?? "llm";
  return (
    <>
      <BaseEdge
        id={props.id}
        path={path}
        className={`run-arc prov-${provenance}${data?.latest ? " is-active" : ""}`}
        markerEnd="url(#waddle-arrow-run)"
        interactionWidth={0}
      />
      <EdgeLabelRenderer>
        <div
          className={`run-arc-label prov-${provenance}${data?.latest ? " is-active" : ""}`}
          style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          data-testid={`run-arc-${props.source}-${props.target}`}
          data-provenance={provenance}
          title={`${props.source} → ${props.target}: ${PROVENANCE_LABELS[provenance]}, not along a drawn edge${data && data.count > 1 ? ` (${data.count} times)` : ""}`}
        >
          {PROVENANCE_LABELS[provenance]}
          {data && data.count > 1 ? ` ×${data.count}` : ""}
        </div>
      </EdgeLabelRenderer>
    </>
  );
});

/** The arcs' arrowhead (the canvas's own markers are per edge kind). */
export function RunArcMarker(): ReactElement {
  return (
    <svg className="edge-markers" aria-hidden>
      <defs>
        <ArrowMarker id="waddle-arrow-run" className="arrow-run" />
      </defs>
    </svg>
  );
}
