import { useReactFlow, useStore, type ReactFlowState } from "@xyflow/react";
import { useCallback, useEffect, useRef } from "react";
import { useDocument, useEditor } from "../editor/editor-context.js";
import type { FlowNode } from "../graph/flow-types.js";
import { getBoundsOfRects, getNodeRects } from "../graph/get-node-rects.js";
import { getReadableViewport } from "../graph/get-readable-viewport.js";
import { useRunStore } from "../run-views/use-run-store.js";

// the edge-kind legend floats over the canvas's top 60 px: the first row of a tall agent starts below it
const FIT_OPTIONS = { padding: 0.2, maxZoom: 1.1, insetTop: 64 };

const selectWidth = (state: ReactFlowState): number => (state.panZoom ? state.width : 0);
const selectHeight = (state: ReactFlowState): number => (state.panZoom ? state.height : 0);

/**
 * Fits the view once the canvas shows what the document holds: after an agent is opened and after a
 * change that asked for it (auto-layout), whose positions reach React Flow a render or two after the
 * dispatch. The fit keeps names legible (`getReadableViewport`): an agent too wide for that opens at its
 * start. Bounds come from the spec, so no fit waits for hundreds of nodes to be measured. Returns the
 * function that asks for such a fit.
 */
export function useFitWhenReady(nodes: readonly FlowNode[]): () => void {
  const editor = useEditor();
  const flow = useReactFlow();
  const loadCount = useDocument((state) => state.loadCount);
  // zero until React Flow has measured its pane and can move the view
  const width = useStore(selectWidth);
  const height = useStore(selectHeight);
  const pending = useRef<{ afterNodes: readonly FlowNode[] | null; opening: boolean } | null>({
    afterNodes: null,
    opening: true,
  });
  // the run shown (if any): opening one refits, since the run panel narrows the canvas and the run may
  // play on another version's layout
  const shownRunId = useRunStore((state) => (state.mode === "edit" || !state.spec ? null : state.runId));
  useEffect(() => {
    pending.current = { afterNodes: null, opening: true };
  }, [loadCount]);
  useEffect(() => {
    if (pending.current === null) pending.current = { afterNodes: null, opening: false };
  }, [shownRunId]);
  useEffect(() => {
    const request = pending.current;
    if (!request || width <= 0 || height <= 0 || nodes === request.afterNodes) return;
    const runs = editor.runs.getState();
    const spec = runs.mode !== "edit" && runs.spec ? runs.spec : editor.document.getState().spec;
    const ids = new Set(nodes.map((node) => node.id));
    if (!spec.tools.every((tool) => ids.has(tool.name))) return;
    pending.current = null;
    const bounds = getBoundsOfRects(getNodeRects(spec).map((node) => node.rect));
    if (bounds === null) return;
    const viewport = getReadableViewport(bounds, { width, height, ...FIT_OPTIONS });
    void flow.setViewport(viewport, { duration: request.opening ? 0 : 200 });
  }, [width, height, nodes, flow, editor]);
  // a request waits for nodes newer than the ones on screen when it was made
  return useCallback(() => {
    pending.current = { afterNodes: nodes, opening: false };
  }, [nodes]);
}
