import { useReactFlow } from "@xyflow/react";
import { useEffect, type RefObject } from "react";
import { useEditor } from "../app/editor-context.js";

/** Registers what commands may do to the view (fit, reveal, centre) while the canvas is mounted. */
export function useCanvasApi(wrapper: RefObject<HTMLDivElement | null>, requestFit: () => void): void {
  const editor = useEditor();
  const flow = useReactFlow();
  useEffect(() => {
    editor.canvas.current = {
      fitView: () => void flow.fitView({ padding: 0.2, duration: 250, maxZoom: 1.2 }),
      fitAfterChange: requestFit,
      reveal(target) {
        const spec = editor.document.getState().spec;
        const edgeEnds = (target.edges ?? []).flatMap((id) => {
          const edge = spec.edges.find((candidate) => candidate.id === id);
          return edge ? [edge.source, edge.target] : [];
        });
        const ids = [...(target.nodes ?? []), ...edgeEnds];
        if (ids.length > 0)
          void flow.fitView({ nodes: ids.map((id) => ({ id })), padding: 0.6, duration: 300, maxZoom: 1.1 });
      },
      getCenter() {
        const rect = wrapper.current?.getBoundingClientRect();
        if (!rect) return { x: 0, y: 0 };
        return flow.screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });
      },
    };
    return () => {
      editor.canvas.current = null;
    };
  }, [editor, flow, wrapper, requestFit]);
}
