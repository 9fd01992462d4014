import { useStore, type ReactFlowState } from "@xyflow/react";
import { useMemo } from "react";
import { getEdgeRoute, type EdgeRoute, type RouteOptions } from "../graph/get-edge-route.js";
import { TOOL_NODE_SIZE } from "../model/layout-geometry.js";
import type { Rect } from "../model/geometry.js";

/** A tool node's box in flow coordinates, as React Flow has it now (mid-drag too). */
export interface ToolBox extends Rect {
  id: string;
  parentId: string | undefined;
}

/** What an edge component knows of itself (a subset of React Flow's `EdgeProps`). */
export interface EdgeEnds {
  source: string;
  target: string;
  sourceX: number;
  sourceY: number;
  targetX: number;
  targetY: number;
}

/** How far beyond its ends an edge looks for nodes in its way (a backward bezier loops out this far). */
const REACH = 160;

// one list of boxes per node array React Flow holds, shared by every edge (the array changes on each
// drag frame, measurement and selection, never on a pan); a node that did not move keeps its box object,
// so that edges compare their boxes by identity
const boxCache = new WeakMap<object, readonly ToolBox[]>();
const lastBoxes = new WeakMap<object, Map<string, ToolBox>>();

function getToolBoxes(state: ReactFlowState): readonly ToolBox[] {
  const cached = boxCache.get(state.nodes);
  if (cached) return cached;
  const previous = lastBoxes.get(state.nodeLookup) ?? new Map<string, ToolBox>();
  const next = new Map<string, ToolBox>();
  for (const node of state.nodeLookup.values()) {
    if (node.type !== "tool" || node.hidden) continue;
    const { x, y } = node.internals.positionAbsolute;
    const width = node.measured.width ?? TOOL_NODE_SIZE.width;
    const height = node.measured.height ?? TOOL_NODE_SIZE.height;
    const old = previous.get(node.id);
    const same =
      old?.x === x &&
      old.y === y &&
      old.width === width &&
      old.height === height &&
      old.parentId === node.parentId;
    next.set(node.id, same ? old : { id: node.id, parentId: node.parentId, x, y, width, height });
  }
  const boxes = [...next.values()];
  lastBoxes.set(state.nodeLookup, next);
  boxCache.set(state.nodes, boxes);
  return boxes;
}

function areSameBoxes(a: readonly ToolBox[], b: readonly ToolBox[]): boolean {
  return a.length === b.length && a.every((box, index) => box === b[index]);
}

/**
 * The tool boxes across the horizontal span of an edge (its ends included), re-rendering the edge only
 * when one of them moves or resizes, not on every change elsewhere on the canvas.
 */
export function useToolBoxesBetween(ends: EdgeEnds): readonly ToolBox[] {
  const left = Math.min(ends.sourceX, ends.targetX) - REACH;
  const right = Math.max(ends.sourceX, ends.targetX) + REACH;
  return useStore(
    (state) => getToolBoxes(state).filter((box) => box.x < right && box.x + box.width > left),
    areSameBoxes,
  );
}

/**
 * The route of an edge round the tools in its way (`getEdgeRoute`, its own ends included), and the tool
 * boxes near it.
 */
export function useEdgeRoute(
  ends: EdgeEnds,
  style: Pick<RouteOptions, "clearance" | "prefer"> = {},
): { route: EdgeRoute; boxes: readonly ToolBox[] } {
  const boxes = useToolBoxesBetween(ends);
  const { source, target, sourceX, sourceY, targetX, targetY } = ends;
  const { clearance, prefer } = style;
  const route = useMemo(() => {
    // the members of a group frame the edge leaves or enters lie inside that frame, behind its handle
    const obstacles = boxes.filter((box) => box.parentId !== source && box.parentId !== target);
    return getEdgeRoute({
      source: { x: sourceX, y: sourceY },
      target: { x: targetX, y: targetY },
      obstacles,
      ...(clearance === undefined ? {} : { clearance }),
      ...(prefer === undefined ? {} : { prefer }),
    });
  }, [boxes, source, target, sourceX, sourceY, targetX, targetY, clearance, prefer]);
  return { route, boxes };
}

/** `useEdgeRoute` in the shape of React Flow's `getBezierPath`: `[path, labelX, labelY]`. */
export function useRoutedPath(ends: EdgeEnds): [path: string, labelX: number, labelY: number] {
  const { route } = useEdgeRoute(ends);
  return [route.path, route.label.x, route.label.y];
}
