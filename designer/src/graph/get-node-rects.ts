import type { AgentSpec } from "@waddle/protocol";
import { getAbsolutePosition, getGroupKey, getGroupRect, TOOL_NODE_SIZE } from "../model/layout-geometry.js";
import type { Rect } from "../model/geometry.js";

/** A node's box in flow coordinates: tools by name, group frames by their `group:<id>` key. */
export interface NodeRect {
  id: string;
  kind: "tool" | "group";
  rect: Rect;
}

/** Every tool and group frame of the spec as a box in flow coordinates (tools at their nominal size). */
export function getNodeRects(spec: AgentSpec): NodeRect[] {
  const tools = spec.tools.map((tool) => {
    const point = getAbsolutePosition(spec, tool.name);
    return { id: tool.name, kind: "tool" as const, rect: { x: point.x, y: point.y, ...TOOL_NODE_SIZE } };
  });
  const groups = spec.groups.map((group) => ({
    id: getGroupKey(group.id),
    kind: "group" as const,
    rect: getGroupRect(spec, group.id),
  }));
  return [...tools, ...groups];
}

/** The smallest box around some boxes; null for none. */
export function getBoundsOfRects(rects: readonly Rect[]): Rect | null {
  if (rects.length === 0) return null;
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const rect of rects) {
    left = Math.min(left, rect.x);
    top = Math.min(top, rect.y);
    right = Math.max(right, rect.x + rect.width);
    bottom = Math.max(bottom, rect.y + rect.height);
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** True when two boxes overlap (touching borders do not). */
export function doRectsIntersect(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** A box grown by `margin` on every side (shrunk for a negative one). */
export function getInflatedRect(rect: Rect, margin: number): Rect {
  return {
    x: rect.x - margin,
    y: rect.y - margin,
    width: rect.width + 2 * margin,
    height: rect.height + 2 * margin,
  };
}
