import { useNodesInitialized, useReactFlow } from "@xyflow/react";
import { useCallback, useEffect, useRef } from "react";
import { useDocument, useEditor } from "../app/editor-context.js";
import type { FlowNode } from "../graph/flow-types.js";

const FIT_OPTIONS = { padding: 0.2, maxZoom: 1.1, duration: 200 };

/**
 * Fits the view once the canvas shows what the document holds: after an agent is opened (when its nodes
 * are measured) and after a change that asked for it (auto-layout), whose positions reach React Flow a
 * render or two after the dispatch. Returns the function that asks for such a fit.
 */
export function useFitWhenReady(nodes: readonly FlowNode[]): () => void {
  const editor = useEditor();
  const flow = useReactFlow();
  const loadCount = useDocument((state) => state.loadCount);
  const nodesInitialized = useNodesInitialized();
  const pending = useRef<{ afterNodes: readonly FlowNode[] | null } | null>({ afterNodes: null });
  useEffect(() => {
    pending.current = { afterNodes: null };
  }, [loadCount]);
  useEffect(() => {
    const request = pending.current;
    if (!request || !nodesInitialized || nodes === request.afterNodes) return;
    const ids = new Set(nodes.map((node) => node.id));
    if (!editor.document.getState().spec.tools.every((tool) => ids.has(tool.name))) return;
    pending.current = null;
    void flow.fitView(FIT_OPTIONS);
  }, [nodesInitialized, nodes, flow, editor]);
  // a request waits for nodes newer than the ones on screen when it was made
  return useCallback(() => {
    pending.current = { afterNodes: nodes };
  }, [nodes]);
}
