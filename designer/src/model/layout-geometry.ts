import type { AgentSpec, ParallelGroup, Position } from "@waddle/protocol";
import type { Rect, XYPosition } from "./geometry.js";

// How spec.layout keys and stores positions (members relative to their frame): designer/docs/layout-coordinates.md

/** Tool nodes have a fixed width (CSS) and about this height; layout maths uses these. */
export const TOOL_NODE_SIZE = { width: 240, height: 92 } as const;
/** Room between a group frame's border and its members; the top leaves space for the title bar. */
export const GROUP_PADDING = { top: 48, side: 24, bottom: 24 } as const;
export const DEFAULT_GROUP_SIZE = { width: 320, height: 260 } as const;

const GROUP_PREFIX = "group:";

/** The layout key (and canvas node id) of a group: `group:<id>`. Tools use their name. */
export function getGroupKey(groupId: string): string {
  return `${GROUP_PREFIX}${groupId}`;
}

/** The group id of a `group:<id>` key, or undefined for a tool key. */
export function getGroupIdFromKey(key: string): string | undefined {
  return key.startsWith(GROUP_PREFIX) ? key.slice(GROUP_PREFIX.length) : undefined;
}

/** The parallel group a tool belongs to (a tool belongs to at most one). */
export function getGroupOfTool(spec: AgentSpec, toolName: string): ParallelGroup | undefined {
  return spec.groups.find((group) => group.members.includes(toolName));
}

/** Where a tool without a stored position goes: a grid, so that imported specs still show every tool. */
export function getFallbackPosition(index: number): XYPosition {
  return { x: (index % 4) * 320, y: Math.floor(index / 4) * 160 };
}

/** The stored layout entry of a node, or the fallback for tools without one. */
export function getStoredPosition(spec: AgentSpec, key: string): Position {
  const stored = spec.layout.nodes[key];
  if (stored) return stored;
  const groupId = getGroupIdFromKey(key);
  if (groupId !== undefined) {
    const index = spec.groups.findIndex((group) => group.id === groupId);
    return { ...getFallbackPosition(index), y: -DEFAULT_GROUP_SIZE.height - 80, ...DEFAULT_GROUP_SIZE };
  }
  const index = spec.tools.findIndex((tool) => tool.name === key);
  return getFallbackPosition(Math.max(index, 0));
}

/** A node's top-left corner in flow coordinates (members are stored relative to their frame). */
export function getAbsolutePosition(spec: AgentSpec, key: string): XYPosition {
  const own = getStoredPosition(spec, key);
  if (getGroupIdFromKey(key) !== undefined) return { x: own.x, y: own.y };
  const group = getGroupOfTool(spec, key);
  if (!group) return { x: own.x, y: own.y };
  const frame = getStoredPosition(spec, getGroupKey(group.id));
  return { x: frame.x + own.x, y: frame.y + own.y };
}

/** A group frame's rectangle in flow coordinates. */
export function getGroupRect(spec: AgentSpec, groupId: string): Rect {
  const stored = getStoredPosition(spec, getGroupKey(groupId));
  return {
    x: stored.x,
    y: stored.y,
    width: stored.width ?? DEFAULT_GROUP_SIZE.width,
    height: stored.height ?? DEFAULT_GROUP_SIZE.height,
  };
}

/** The smallest frame around some tool rectangles, with room for the title bar. */
export function getFrameAround(points: readonly XYPosition[]): Rect {
  const xs = points.map((point) => point.x);
  const ys = points.map((point) => point.y);
  const left = Math.min(...xs) - GROUP_PADDING.side;
  const top = Math.min(...ys) - GROUP_PADDING.top;
  const right = Math.max(...xs) + TOOL_NODE_SIZE.width + GROUP_PADDING.side;
  const bottom = Math.max(...ys) + TOOL_NODE_SIZE.height + GROUP_PADDING.bottom;
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** True when a point lies inside a rectangle (borders included). */
export function isPointInRect(point: XYPosition, rect: Rect): boolean {
  return (
    point.x >= rect.x &&
    point.x <= rect.x + rect.width &&
    point.y >= rect.y &&
    point.y <= rect.y + rect.height
  );
}
