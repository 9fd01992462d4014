import type { AgentSpec, Position } from "@waddle/protocol";
import type { SpecChange } from "../model/spec-change.js";
import {
  getGroupIdFromKey,
  getGroupOfTool,
  getGroupRect,
  isPointInRect,
  TOOL_NODE_SIZE,
} from "../model/layout-geometry.js";
import type { XYPosition } from "../model/geometry.js";

/** A node as it is when a drag ends: its position in its parent and in the flow. */
export interface DraggedNode {
  id: string;
  /** Relative to the parent frame for members, else absolute. */
  position: XYPosition;
  absolute: XYPosition;
  width?: number;
  height?: number;
}

/** The group whose frame holds a tool's centre, or null for the open canvas. */
export function getDropGroup(
  spec: AgentSpec,
  options: { tool: string; absolute: XYPosition },
): string | null {
  const center = {
    x: options.absolute.x + TOOL_NODE_SIZE.width / 2,
    y: options.absolute.y + TOOL_NODE_SIZE.height / 2,
  };
  // later groups are drawn on top, so they win when frames overlap
  for (const group of [...spec.groups].reverse()) {
    if (isPointInRect(center, getGroupRect(spec, group.id))) return group.id;
  }
  return null;
}

/**
 * The document change for the end of a drag: new positions, and for a tool dropped into or out of a group
 * frame, its new membership. Returns null when nothing moved.
 */
export function getDragStopChange(spec: AgentSpec, dragged: readonly DraggedNode[]): SpecChange | null {
  const draggedGroups = new Set(dragged.flatMap((node) => getGroupIdFromKey(node.id) ?? []));
  const positions: Record<string, Position> = {};
  const memberships: SpecChange[] = [];
  for (const node of dragged) {
    const point = { x: Math.round(node.position.x), y: Math.round(node.position.y) };
    const groupId = getGroupIdFromKey(node.id);
    if (groupId !== undefined) {
      const rect = getGroupRect(spec, groupId);
      positions[node.id] = { ...point, width: rect.width, height: rect.height };
      continue;
    }
    if (!spec.tools.some((tool) => tool.name === node.id)) continue;
    const current = getGroupOfTool(spec, node.id)?.id ?? null;
    if (current !== null && draggedGroups.has(current)) continue;
    const target = getDropGroup(spec, { tool: node.id, absolute: node.absolute });
    if (target === current) positions[node.id] = point;
    else memberships.push({ type: "setMembership", tool: node.id, groupId: target, position: node.absolute });
  }
  const changes: SpecChange[] = [
    ...(Object.keys(positions).length > 0 ? [{ type: "moveNodes" as const, positions }] : []),
    ...memberships,
  ];
  if (changes.length === 0) return null;
  return changes.length === 1 && changes[0] ? changes[0] : { type: "batch", label: "move", changes };
}

/** The document change for the end of a frame resize. */
export function getResizeStopChange(options: {
  id: string;
  position: XYPosition;
  width: number;
  height: number;
}): SpecChange {
  return {
    type: "moveNodes",
    positions: {
      [options.id]: {
        x: Math.round(options.position.x),
        y: Math.round(options.position.y),
        width: Math.round(options.width),
        height: Math.round(options.height),
      },
    },
  };
}
