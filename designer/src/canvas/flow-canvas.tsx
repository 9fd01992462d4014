import {
  Background,
  BackgroundVariant,
  ConnectionLineType,
  Controls,
  MiniMap,
  ReactFlow,
  useReactFlow,
  type Connection,
  type EdgeTypes,
  type IsValidConnection,
  type NodeTypes,
} from "@xyflow/react";
import {
  useCallback,
  useMemo,
  useRef,
  type DragEvent,
  type MouseEvent as ReactMouseEvent,
  type ReactElement,
} from "react";
import { useDocument, useEditor, useUi } from "../editor/editor-context.js";
import { connectTools } from "../commands/editor-actions.js";
import { getConnectionProblem } from "../graph/connection-rules.js";
import type { FlowEdge, FlowNode } from "../graph/flow-types.js";
import { addPaletteItem } from "./add-palette-item.js";
import { CanvasEmptyState } from "./canvas-empty-state.js";
import { CanvasLegend } from "./canvas-legend.js";
import { EdgeMarkers } from "./edge-markers.js";
import { GroupNode } from "./group-node.js";
import { JoinEdge } from "./join-edge.js";
import { PALETTE_MIME, readPaletteItem } from "./palette-drop.js";
import { SpecEdge } from "./spec-edge.js";
import { SuggestedEdge } from "./suggested-edge.js";
import { ToolNode } from "./tool-node.js";
import { useCanvasApi } from "./use-canvas-api.js";
import { useFitWhenReady } from "./use-fit-when-ready.js";
import { useFlowState } from "./use-flow-state.js";
import { useFollowRun } from "./use-follow-run.js";
import { useIsAllInView } from "./use-is-all-in-view.js";
import { FollowRunToggle } from "./follow-run-toggle.js";
import { RunArcEdge, RunArcMarker } from "../run-views/canvas/run-arc-edge.js";
import { RunCanvasBar } from "../run-views/canvas/run-canvas-bar.js";
import { useIsRunShown } from "../run-views/canvas/use-run-canvas.js";
import { DESIGN_PERMISSION, useDenied } from "../store/me-store.js";

const nodeTypes: NodeTypes = { tool: ToolNode, group: GroupNode };
const edgeTypes: EdgeTypes = { spec: SpecEdge, suggested: SuggestedEdge, join: JoinEdge, runArc: RunArcEdge };
const SNAP_GRID: [number, number] = [16, 16];
const SIDE_EFFECT_COLORS: Record<string, string> = {
  pure: "#0d9488",
  read: "#2563eb",
  write: "#d97706",
  external: "#7c3aed",
  stateful: "#db2777",
};

function getMiniMapColor(node: FlowNode): string {
  return node.type === "tool"
    ? (SIDE_EFFECT_COLORS[node.data.tool.sideEffects] ?? "#888")
    : "rgba(124, 58, 237, 0.12)";
}

/** The canvas: tools, groups and edges of the document, with drag, connect, drop and context menus. */
export function FlowCanvas({ colorMode }: { colorMode: "light" | "dark" }): ReactElement {
  const editor = useEditor();
  const wrapper = useRef<HTMLDivElement>(null);
  const flow = useReactFlow();
  const edgeKind = useUi((state) => state.edgeKind);
  const toolCount = useDocument((state) => state.spec.tools.length);
  const { nodes, edges, onNodesChange, onEdgesChange, onNodeDragStart, onNodeDragStop } = useFlowState();
  // a shown run is read-only: no drag, connect, drop or context menu until "Back to editing"; so is the
  // whole design for a role that may not write
  const runShown = useIsRunShown();
  const readOnly = useDenied(DESIGN_PERMISSION) !== null;
  const locked = runShown || readOnly;

  const requestFit = useFitWhenReady(nodes);
  useCanvasApi(wrapper, requestFit);
  const onMoveStart = useFollowRun();
  const allInView = useIsAllInView();

  const isValidConnection = useCallback<IsValidConnection<FlowEdge>>(
    (connection) =>
      getConnectionProblem(editor.document.getState().spec, {
        source: connection.source,
        target: connection.target,
        kind: editor.ui.getState().edgeKind,
      }) === null,
    [editor],
  );
  const onConnect = useCallback(
    (connection: Connection) =>
      void connectTools(editor, { source: connection.source, target: connection.target }),
    [editor],
  );

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(PALETTE_MIME)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  }, []);
  const onDrop = useCallback(
    (event: DragEvent) => {
      const item = readPaletteItem(event.dataTransfer.getData(PALETTE_MIME));
      if (!item) return;
      event.preventDefault();
      addPaletteItem(editor, {
        item,
        center: flow.screenToFlowPosition({ x: event.clientX, y: event.clientY }),
      });
    },
    [editor, flow],
  );

  const openMenu = useCallback(
    (
      target: "node" | "edge" | "pane",
      event: ReactMouseEvent | MouseEvent,
      select?: { nodes?: string[]; edges?: string[] },
    ) => {
      event.preventDefault();
      const { selection, setSelection } = editor.document.getState();
      const alreadySelected =
        select?.nodes?.every((id) => selection.nodes.includes(id)) &&
        select?.edges?.every((id) => selection.edges.includes(id));
      if (select && !alreadySelected) setSelection({ nodes: select.nodes ?? [], edges: select.edges ?? [] });
      editor.ui.getState().set({ contextMenu: { x: event.clientX, y: event.clientY, target } });
    },
    [editor],
  );

  // stable props: a new function or object here would re-render every node and edge wrapper
  const onNodeContextMenu = useCallback(
    (event: ReactMouseEvent, node: FlowNode) => openMenu("node", event, { nodes: [node.id], edges: [] }),
    [openMenu],
  );
  const onEdgeContextMenu = useCallback(
    (event: ReactMouseEvent, edge: FlowEdge) =>
      edge.type === "spec"
        ? openMenu("edge", event, { nodes: [], edges: [edge.id] })
        : event.preventDefault(),
    [openMenu],
  );
  const onPaneContextMenu = useCallback(
    (event: ReactMouseEvent | MouseEvent) => openMenu("pane", event),
    [openMenu],
  );
  const onPaneClick = useCallback(() => editor.ui.getState().set({ contextMenu: null }), [editor]);
  const connectionLineStyle = useMemo(
    () => ({
      strokeDasharray: edgeKind === "order" ? "6 5" : undefined,
      stroke: edgeKind === "order" ? "var(--edge-order)" : "var(--edge-auto)",
      strokeWidth: 2,
    }),
    [edgeKind],
  );

  return (
    <div
      className={`canvas${runShown ? " is-run-shown" : ""}`}
      ref={wrapper}
      data-testid="canvas"
      data-run-shown={runShown}
      data-read-only={readOnly}
      onDragOver={locked ? undefined : onDragOver}
      onDrop={locked ? undefined : onDrop}
    >
      <EdgeMarkers />
      <RunArcMarker />
      <ReactFlow<FlowNode, FlowEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onNodeDragStart={onNodeDragStart}
        onNodeDragStop={onNodeDragStop}
        onConnect={onConnect}
        isValidConnection={isValidConnection}
        nodesDraggable={!locked}
        nodesConnectable={!locked}
        onNodeContextMenu={locked ? undefined : onNodeContextMenu}
        onEdgeContextMenu={locked ? undefined : onEdgeContextMenu}
        onPaneContextMenu={locked ? undefined : onPaneContextMenu}
        onPaneClick={onPaneClick}
        onMoveStart={onMoveStart}
        connectionLineType={ConnectionLineType.Bezier}
        connectionLineStyle={connectionLineStyle}
        colorMode={colorMode}
        deleteKeyCode={null}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={editor.isMac ? "Meta" : "Control"}
        snapToGrid
        snapGrid={SNAP_GRID}
        minZoom={0.05}
        maxZoom={2}
        onlyRenderVisibleElements={toolCount > 80}
        // no fitView here: useFitWhenReady sets the first view, at a zoom where names stay legible
      >
        <Background variant={BackgroundVariant.Dots} gap={16} size={1.2} />
        {allInView ? null : (
          <MiniMap<FlowNode>
            pannable
            zoomable
            nodeColor={getMiniMapColor}
            nodeStrokeWidth={2}
            ariaLabel="Minimap"
          />
        )}
        <Controls showInteractive={false} />
        <CanvasLegend />
      </ReactFlow>
      {toolCount === 0 && !locked ? <CanvasEmptyState /> : null}
      <RunCanvasBar />
      <FollowRunToggle />
    </div>
  );
}
