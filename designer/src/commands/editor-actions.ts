import type { ToolSpec } from "@waddle/protocol";
import type { Editor } from "../editor/editor-context.js";
import { getConnectChange, getConnectionProblem } from "../graph/connection-rules.js";
import { createUniqueName } from "../graph/create-unique-name.js";
import { getDropGroup } from "../graph/get-drag-stop-change.js";
import { getNewGroupPosition } from "../graph/get-new-group-position.js";
import { getNewToolPosition, getToolRect, isRectInside } from "../graph/get-new-tool-position.js";
import { getGroupKey, TOOL_NODE_SIZE } from "../model/layout-geometry.js";
import type { Rect, XYPosition } from "../model/geometry.js";

/**
 * Adds a tool and selects it: centred on a flow point (a drop; inside the frame it lands in), else to the
 * right of the right-most node in view (`getNewToolPosition`), with the view widened to show it.
 */
export function addToolToCanvas(editor: Editor, options: { tool: ToolSpec; center?: XYPosition }): void {
  const { document } = editor;
  const canvas = editor.canvas.current;
  const spec = document.getState().spec;
  const { center } = options;
  const view = canvas?.getViewRect();
  const position = center
    ? { x: center.x - TOOL_NODE_SIZE.width / 2, y: center.y - TOOL_NODE_SIZE.height / 2 }
    : getNewToolPosition(spec, view === undefined || view.width <= 0 ? {} : { view });
  const groupId = getDropGroup(spec, { tool: options.tool.name, absolute: position });
  const change =
    groupId === null
      ? { type: "addTool" as const, tool: options.tool, position }
      : { type: "addTool" as const, tool: options.tool, position, groupId };
  if (document.getState().dispatch(change)) {
    document.getState().setSelection({ nodes: [options.tool.name], edges: [] });
    editor.ui.getState().set({ rightTab: "inspector" });
    const rect = getToolRect(position);
    if (!center && canvas && view && !isRectInside(rect, view)) canvas.showRect(rect);
  }
}

/**
 * Adds an empty parallel group frame and selects it: centred on a flow point (a drop) or the middle of
 * the view, moved to the nearest free spot when that would cover tools (`getNewGroupPosition`).
 */
export function addGroupToCanvas(editor: Editor, center?: XYPosition): void {
  const { document } = editor;
  const spec = document.getState().spec;
  const canvas = editor.canvas.current;
  const point = center ?? canvas?.getCenter() ?? { x: 0, y: 0 };
  const view = getUncoveredView(canvas?.getViewRect());
  const id = createUniqueName({ base: "group", taken: spec.groups.map((group) => group.id), separator: "-" });
  const name = createUniqueName({
    base: "Parallel group",
    taken: spec.groups.map((group) => group.name),
    separator: " ",
  });
  const frame = getNewGroupPosition(spec, {
    center: point,
    ...(view === undefined || view.width <= 0 ? {} : { view }),
  });
  if (
    document
      .getState()
      .dispatch({ type: "addGroup", group: { id, kind: "parallel", name, members: [] }, frame })
  ) {
    document.getState().setSelection({ nodes: [getGroupKey(id)], edges: [] });
    editor.ui.getState().set({ rightTab: "inspector" });
    if (canvas && view && !isRectInside(frame, view)) canvas.showRect(frame);
  }
}

/** The view less its top tenth, where the edge-kind legend floats over the canvas (a title there is hidden). */
function getUncoveredView(view: Rect | undefined): Rect | undefined {
  if (view === undefined) return undefined;
  const top = view.height / 10;
  return { x: view.x, y: view.y + top, width: view.width, height: view.height - top };
}

/** Draws an edge of the current kind (or the one given); explains in a toast when it is not allowed. */
export function connectTools(
  editor: Editor,
  options: { source: string; target: string; kind?: "auto_seq" | "order" },
): boolean {
  const spec = editor.document.getState().spec;
  const request = {
    source: options.source,
    target: options.target,
    kind: options.kind ?? editor.ui.getState().edgeKind,
  };
  const problem = getConnectionProblem(spec, request);
  if (problem) {
    editor.ui.getState().notify("info", problem);
    return false;
  }
  const change = getConnectChange(spec, request);
  return change !== null && editor.document.getState().dispatch(change);
}

/** Accepts a suggested auto-seq edge with one click. */
export function acceptSuggestion(editor: Editor, options: { source: string; target: string }): void {
  connectTools(editor, { ...options, kind: "auto_seq" });
}
