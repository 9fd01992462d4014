import { BaseEdge, EdgeLabelRenderer, type EdgeProps } from "@xyflow/react";
import { memo, useMemo, type ReactElement } from "react";
import { useEditor } from "../editor/editor-context.js";
import { acceptSuggestion } from "../commands/editor-actions.js";
import type { SuggestedFlowEdge } from "../graph/flow-types.js";
import { getChipPosition } from "../graph/get-chip-position.js";
import { useEdgeRoute } from "./use-edge-route.js";

// detours run below and wider than the spec's edges (above, 20 px out), never on top of them
const SUGGESTION_ROUTE = { clearance: 36, prefer: "below" } as const;

/** A ghosted auto-seq edge the schemas suggest, with a button that adds it. */
export const SuggestedEdge = memo(function SuggestedEdge(props: EdgeProps<SuggestedFlowEdge>): ReactElement {
  const editor = useEditor();
  const { route, boxes } = useEdgeRoute(props, SUGGESTION_ROUTE);
  // on the edge where it covers no tool's text (its own ends included), else just above or below them
  const point = useMemo(() => getChipPosition({ points: route.points, obstacles: boxes }), [route, boxes]);
  const matched = props.data?.matched ?? [];
  return (
    <>
      <BaseEdge id={props.id} path={route.path} className="suggested-edge" interactionWidth={0} />
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
