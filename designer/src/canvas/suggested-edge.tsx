import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from "@xyflow/react";
import { memo, type ReactElement } from "react";
import { useEditor } from "../app/editor-context.js";
import { acceptSuggestion } from "../commands/editor-actions.js";
import type { SuggestedFlowEdge } from "../graph/flow-types.js";
import { getPathPoint } from "../graph/get-path-point.js";

/** A ghosted auto-seq edge the schemas suggest, with a button that adds it. */
export const SuggestedEdge = memo(function SuggestedEdge(props: EdgeProps<SuggestedFlowEdge>): ReactElement {
  const editor = useEditor();
  const [path, labelX, labelY] = getBezierPath(props);
  // near the target end: a midpoint chip often lands on a tool between the two
  const point = getPathPoint(path, 0.78) ?? { x: labelX, y: labelY };
  const matched = props.data?.matched ?? [];
  return (
    <>
      <BaseEdge id={props.id} path={path} className="suggested-edge" interactionWidth={0} />
      <EdgeLabelRenderer>
        <button
          type="button"
          className="suggestion-chip nodrag nopan"
          style={{ transform: `translate(-50%, -50%) translate(${point.x}px, ${point.y}px)` }}
          data-testid={`accept-suggestion-${props.source}-${props.target}`}
          title={`Suggested: ${props.source}'s output provides ${matched.join(", ")}, everything ${props.target} requires. Click to add an auto-seq edge.`}
          onClick={() => acceptSuggestion(editor, { source: props.source, target: props.target })}
        >
          + auto-seq
        </button>
      </EdgeLabelRenderer>
    </>
  );
});
