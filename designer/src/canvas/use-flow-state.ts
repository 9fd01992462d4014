import {
  applyNodeChanges,
  useReactFlow,
  type EdgeChange,
  type NodeChange,
  type OnNodeDrag,
} from "@xyflow/react";
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { useDocument, useEditor, useUi } from "../editor/editor-context.js";
import { useValidation } from "../editor/use-validation.js";
import type { FlowEdge, FlowNode } from "../graph/flow-types.js";
import { getDragStopChange, type DraggedNode } from "../graph/get-drag-stop-change.js";
import { getVisibleSuggestions } from "../graph/get-validation.js";
import { reconcileEdges, reconcileNodes } from "../graph/reconcile-nodes.js";
import { specToFlow } from "../graph/spec-to-flow.js";
import { useRunArcEdges } from "../run-views/canvas/use-run-arc-edges.js";
import { useRunStore } from "../run-views/use-run-store.js";
import type { Selection } from "../model/selection.js";
import type { XYPosition } from "../model/geometry.js";
import { DESIGN_PERMISSION, useDenied } from "../store/me-store.js";

function applySelectChanges(
  ids: readonly string[],
  changes: readonly { id: string; selected: boolean }[],
): string[] {
  const next = new Set(ids);
  for (const change of changes) {
    if (change.selected) next.add(change.id);
    else next.delete(change.id);
  }
  return [...next];
}

/**
 * The canvas's nodes and edges, derived from the document with `specToFlow`. Nodes live in local state
 * (React Flow writes measured sizes and live drag positions there) and are reconciled with every new
 * derivation; edits go back to the document only as change objects (drag stop, arrow-key move, resize
 * end). While a run is shown the canvas draws the spec of the version that ran (not the document), adds
 * the run's temporary arcs, and a click selects the tool's latest call instead of editing anything.
 */
export function useFlowState() {
  const editor = useEditor();
  const spec = useDocument((state) => state.spec);
  const selection = useDocument((state) => state.selection);
  // suggested edges invite an edit: none for a role that may not write
  const readOnly = useDenied(DESIGN_PERMISSION) !== null;
  const showSuggestions = useUi((state) => state.showSuggestions) && !readOnly;
  const { index } = useValidation();
  const { getInternalNode } = useReactFlow();
  const runSpec = useRunStore((state) => (state.mode === "edit" ? null : state.spec));
  const runSelectedTool = useRunStore((state) =>
    state.mode === "edit" || state.selectedCallId === null
      ? null
      : (state.view?.calls[state.selectedCallId]?.tool ?? null),
  );
  const runArcs = useRunArcEdges(runSpec);

  // suggestions compare every pair of tools: computed on a deferred spec, so edits never wait for them
  const deferredSpec = useDeferredValue(spec);
  const suggestions = useMemo(
    () => (showSuggestions ? getVisibleSuggestions(deferredSpec, selection) : []),
    [showSuggestions, deferredSpec, selection],
  );
  const derived = useMemo(
    () =>
      runSpec
        ? specToFlow(runSpec, { selection: { nodes: runSelectedTool ? [runSelectedTool] : [], edges: [] } })
        : specToFlow(spec, { issues: index, selection, suggestions }),
    [runSpec, runSelectedTool, spec, index, selection, suggestions],
  );
  // unchanged edges keep their objects, so React Flow re-renders only the edges that changed
  const previousEdges = useRef<FlowEdge[]>([]);
  const edges = useMemo(() => {
    const reconciled = (previousEdges.current = reconcileEdges(previousEdges.current, derived.edges));
    return runArcs.length > 0 ? [...reconciled, ...runArcs] : reconciled;
  }, [derived.edges, runArcs]);
  const [nodes, setNodes] = useState<FlowNode[]>(derived.nodes);
  useEffect(() => setNodes((previous) => reconcileNodes(previous, derived.nodes)), [derived.nodes]);

  // arrow keys move selected nodes with position changes but no drag events: they are committed here
  const isDragging = useRef(false);
  const commitKeyboardMove = useCallback(
    (moves: readonly { id: string; position: XYPosition }[]) => {
      const dragged: DraggedNode[] = moves.map(({ id, position }) => ({
        id,
        position,
        absolute: getInternalNode(id)?.internals.positionAbsolute ?? position,
      }));
      const document = editor.document.getState();
      const change = getDragStopChange(document.spec, dragged);
      const key = `keyboard-move:${moves.map((move) => move.id).join(",")}`;
      if (change) document.dispatch(change, { coalesceKey: key });
    },
    [editor, getInternalNode],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<FlowNode>[]) => {
      const runs = editor.runs.getState();
      if (runs.mode !== "edit") {
        // a shown run is read-only: keep React Flow's measurements, and a click picks the tool's latest call
        const measured = changes.filter((change) => change.type === "dimensions");
        if (measured.length > 0) setNodes((previous) => applyNodeChanges(measured, previous));
        const picked = changes.find((change) => change.type === "select" && change.selected);
        if (picked?.type === "select") runs.selectCall(runs.view?.nodes[picked.id]?.lastCallId ?? null);
        return;
      }
      setNodes((previous) => applyNodeChanges(changes, previous));
      if (!isDragging.current) {
        const moves = changes.flatMap((change) =>
          change.type === "position" && change.dragging === false && change.position
            ? [{ id: change.id, position: change.position }]
            : [],
        );
        if (moves.length > 0) commitKeyboardMove(moves);
      }
      const selects = changes.flatMap((change) => (change.type === "select" ? [change] : []));
      if (selects.length === 0) return;
      const current: Selection = editor.document.getState().selection;
      editor.document
        .getState()
        .setSelection({ nodes: applySelectChanges(current.nodes, selects), edges: current.edges });
    },
    [editor, commitKeyboardMove],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<FlowEdge>[]) => {
      if (editor.runs.getState().mode !== "edit") return;
      const selects = changes.flatMap((change) => (change.type === "select" ? [change] : []));
      if (selects.length === 0) return;
      const current = editor.document.getState().selection;
      editor.document
        .getState()
        .setSelection({ nodes: current.nodes, edges: applySelectChanges(current.edges, selects) });
    },
    [editor],
  );

  const onNodeDragStart = useCallback<OnNodeDrag<FlowNode>>(() => {
    isDragging.current = true;
  }, []);

  const onNodeDragStop = useCallback<OnNodeDrag<FlowNode>>(
    (_event, _node, draggedNodes) => {
      isDragging.current = false;
      const dragged: DraggedNode[] = draggedNodes.map((node) => {
        const internal = getInternalNode(node.id);
        return {
          id: node.id,
          position: node.position,
          absolute: internal?.internals.positionAbsolute ?? node.position,
        };
      });
      const change = getDragStopChange(editor.document.getState().spec, dragged);
      if (change) editor.document.getState().dispatch(change);
      // a drop that changes nothing (or that the document refuses) must still snap back
      else
        setNodes((previous) =>
          reconcileNodes(
            previous.map((node) => ({ ...node, dragging: false })),
            derived.nodes,
          ),
        );
    },
    [editor, getInternalNode, derived.nodes],
  );

  return { nodes, edges, onNodesChange, onEdgesChange, onNodeDragStart, onNodeDragStop };
}
