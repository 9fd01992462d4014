import { BaseEdge, EdgeLabelRenderer, type EdgeProps } from "@xyflow/react";
import { memo, type ReactElement } from "react";
import { IssueBadge } from "../components/issue-badge.js";
import type { SpecFlowEdge } from "../graph/flow-types.js";
import { SpecEdgeRun } from "../run-views/canvas/spec-edge-run.js";
import { useRoutedPath } from "./use-edge-route.js";

/** An edge of the spec: auto-seq solid and accented, order dashed and grey; an issue badge at its middle. */
export const SpecEdge = memo(function SpecEdge(props: EdgeProps<SpecFlowEdge>): ReactElement {
  // bent round the tools in its way: a straight run under a tool would read as a chain through it
  const [path, labelX, labelY] = useRoutedPath(props);
  const kind = props.data?.kind ?? "order";
  const issues = props.data?.issues ?? null;
  return (
    <>
      <BaseEdge
        id={props.id}
        path={path}
        className={`spec-edge edge-${kind}${props.selected ? " is-selected" : ""}${issues ? " has-issues" : ""}`}
        markerEnd={`url(#waddle-arrow-${kind})`}
        interactionWidth={18}
      />
      <SpecEdgeRun edgeId={props.id} path={path} />
      <EdgeLabelRenderer>
        {/* the kind shows in the line style (see the legend); the label appears when it has something to add */}
        <div
          className={`edge-label edge-label-${kind}${props.selected ? " is-selected" : ""}${props.selected || issues ? "" : " is-quiet"}`}
          style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          data-testid={`edge-${props.id}`}
          data-kind={kind}
          title={
            kind === "auto_seq"
              ? `Auto-seq: ${props.target} may follow ${props.source} without asking the model`
              : `Order hint: ${props.source} before ${props.target}`
          }
        >
          {kind === "auto_seq" ? "auto-seq" : "order"}
          {issues ? <IssueBadge issues={issues} testId={`issue-badge-edge-${props.id}`} /> : null}
        </div>
      </EdgeLabelRenderer>
    </>
  );
});
