import type { ReactElement } from "react";
import { useDocument } from "../editor/editor-context.js";
import { getGroupIdFromKey } from "../model/layout-geometry.js";
import { AgentOverview } from "./agent-overview.js";
import { EdgeInspector } from "./edge-inspector.js";
import { GroupInspector } from "./group-inspector.js";
import { ToolInspector } from "./tool-inspector.js";

/** The inspector for the selection: one tool, group or edge; several; or the agent when nothing is. */
export function Inspector(): ReactElement {
  const selection = useDocument((state) => state.selection);
  const spec = useDocument((state) => state.spec);
  const count = selection.nodes.length + selection.edges.length;
  if (count === 1) {
    const nodeId = selection.nodes[0];
    const edgeId = selection.edges[0];
    const tool = spec.tools.find((candidate) => candidate.name === nodeId);
    if (tool) return <ToolInspector key={tool.name} tool={tool} />;
    const groupId = nodeId === undefined ? undefined : getGroupIdFromKey(nodeId);
    const group = spec.groups.find((candidate) => candidate.id === groupId);
    if (group) return <GroupInspector key={group.id} group={group} />;
    const edge = spec.edges.find((candidate) => candidate.id === edgeId);
    if (edge) return <EdgeInspector key={edge.id} edge={edge} />;
  }
  if (count > 1) {
    return (
      <div className="inspector-body" data-testid="multi-inspector">
        <div className="inspector-title">
          <h2>{count} selected</h2>
        </div>
        <p className="explain">
          {selection.nodes.length} node{selection.nodes.length === 1 ? "" : "s"} and {selection.edges.length}{" "}
          edge{selection.edges.length === 1 ? "" : "s"}. Group them with <kbd>Ctrl</kbd>+<kbd>G</kbd>,
          duplicate with <kbd>Ctrl</kbd>+<kbd>D</kbd>, or delete them. Right-click for more.
        </p>
      </div>
    );
  }
  return <AgentOverview />;
}
