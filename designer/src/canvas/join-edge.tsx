import { BaseEdge, EdgeLabelRenderer, type EdgeProps } from "@xyflow/react";
import { memo, type ReactElement } from "react";
import type { JoinFlowEdge } from "../graph/flow-types.js";
import { SpecEdgeRun } from "../run-views/canvas/spec-edge-run.js";
import { useRoutedPath } from "./use-edge-route.js";

/** From a group frame to its join tool: the branches' results flow in here. */
export const JoinEdge = memo(function JoinEdge(props: EdgeProps<JoinFlowEdge>): ReactElement {
  const [path, labelX, labelY] = useRoutedPath(props);
  return (
    <>
      <BaseEdge
        id={props.id}
        path={path}
        className="join-edge"
        markerEnd="url(#waddle-arrow-join)"
        interactionWidth={0}
      />
      <SpecEdgeRun edgeId={props.id} path={path} />
      <EdgeLabelRenderer>
        <div
          className="edge-label edge-label-join"
          style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          title={`The results of “${props.data?.groupName ?? ""}” are joined by ${props.target}`}
        >
          join
        </div>
      </EdgeLabelRenderer>
    </>
  );
});
