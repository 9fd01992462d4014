import { useReactFlow } from "@xyflow/react";
import { useEffect, type RefObject } from "react";
import { useEditor } from "../editor/editor-context.js";

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
      getViewRect() {
        const rect = wrapper.current?.getBoundingClientRect();
        if (!rect) return { x: 0, y: 0, width: 0, height: 0 };
        const start = flow.screenToFlowPosition({ x: rect.left, y: rect.top });
        const end = flow.screenToFlowPosition({ x: rect.right, y: rect.bottom });
        return { x: start.x, y: start.y, width: end.x - start.x, height: end.y - start.y };
      },
      showRect(rect) {
        const view = this.getViewRect();
        const x = Math.min(view.x, rect.x);
        const y = Math.min(view.y, rect.y);
        const width = Math.max(view.x + view.width, rect.x + rect.width) - x;
        const height = Math.max(view.y + view.height, rect.y + rect.height) - y;
        void flow.fitBounds({ x, y, width, height }, { padding: 0.05, duration: 200 });
      },
      getScreenSize() {
        const rect = wrapper.current?.getBoundingClientRect();
        return { width: rect?.width ?? 0, height: rect?.height ?? 0 };
      },
      panTo(point) {
        void flow.setCenter(point.x, point.y, { zoom: flow.getZoom(), duration: 300 });
      },
    };
    return () => {
      editor.canvas.current = null;
    };
  }, [editor, flow, wrapper, requestFit]);
}
