import type { AgentSpec, Position } from "@waddle/protocol";
import type { ElkExtendedEdge, ElkNode } from "elkjs/lib/elk-api.js";
import type { SpecChange } from "../model/spec-change.js";
import { DEFAULT_GROUP_SIZE, getGroupKey, GROUP_PADDING, TOOL_NODE_SIZE } from "../model/layout-geometry.js";
import { getWrappedPositions, type LayoutBox } from "./wrap-layout-rows.js";

/** What auto-layout needs of elkjs (a real ELK instance; tests pass one too). */
export interface ElkLayouter {
  layout(graph: ElkNode): Promise<ElkNode>;
}

const ROOT_OPTIONS = {
  "elk.algorithm": "layered",
  "elk.direction": "RIGHT",
  "elk.hierarchyHandling": "INCLUDE_CHILDREN",
  "elk.spacing.nodeNode": "40",
  "elk.layered.spacing.nodeNodeBetweenLayers": "90",
  "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
  "elk.padding": "[top=40,left=40,bottom=40,right=40]",
};

const GROUP_OPTIONS = {
  "elk.padding": `[top=${GROUP_PADDING.top},left=${GROUP_PADDING.side},bottom=${GROUP_PADDING.bottom},right=${GROUP_PADDING.side}]`,
  "elk.spacing.nodeNode": "28",
};

/**
 * The spec as an ELK graph: groups are compound nodes holding their members (so a group stays together),
 * every edge of the spec plus an edge from each group to its join tool, laid out left to right.
 */
export function getElkGraph(spec: AgentSpec): ElkNode {
  const toolNames = new Set(spec.tools.map((tool) => tool.name));
  const grouped = new Set<string>();
  const groupNodes: ElkNode[] = spec.groups.map((group) => {
    const members = group.members.filter((name) => toolNames.has(name) && !grouped.has(name));
    members.forEach((name) => grouped.add(name));
    const id = getGroupKey(group.id);
    // an empty frame is a leaf to ELK, laid out at the size a new group gets (so it still takes drops)
    if (members.length === 0) return { id, ...DEFAULT_GROUP_SIZE };
    return {
      id,
      layoutOptions: GROUP_OPTIONS,
      children: members.map((name) => ({ id: name, ...TOOL_NODE_SIZE })),
    };
  });
  const looseTools: ElkNode[] = spec.tools
    .filter((tool) => !grouped.has(tool.name))
    .map((tool) => ({ id: tool.name, ...TOOL_NODE_SIZE }));
  const edges: ElkExtendedEdge[] = spec.edges
    .filter((edge) => toolNames.has(edge.source) && toolNames.has(edge.target) && edge.source !== edge.target)
    .map((edge) => ({ id: edge.id, sources: [edge.source], targets: [edge.target] }));
  for (const group of spec.groups) {
    if (group.join && toolNames.has(group.join.tool) && !group.members.includes(group.join.tool)) {
      edges.push({ id: `join:${group.id}`, sources: [getGroupKey(group.id)], targets: [group.join.tool] });
    }
  }
  return { id: "root", layoutOptions: ROOT_OPTIONS, children: [...groupNodes, ...looseTools], edges };
}

/**
 * Layout entries from a laid-out ELK graph: frames with their size (an empty one at least a new group's),
 * members relative to their frame.
 */
export function getElkPositions(laidOut: ElkNode): Record<string, Position> {
  const positions: Record<string, Position> = {};
  for (const child of laidOut.children ?? []) {
    const point = { x: Math.round(child.x ?? 0), y: Math.round(child.y ?? 0) };
    if (child.id.startsWith("group:")) {
      const members = child.children ?? [];
      // a frame never shrinks below what it can hold: an empty one keeps a new group's size
      const least = members.length === 0 ? DEFAULT_GROUP_SIZE : { width: 1, height: 1 };
      positions[child.id] = {
        ...point,
        width: Math.max(least.width, Math.round(child.width ?? 0)),
        height: Math.max(least.height, Math.round(child.height ?? 0)),
      };
      for (const member of members) {
        positions[member.id] = { x: Math.round(member.x ?? 0), y: Math.round(member.y ?? 0) };
      }
    } else positions[child.id] = point;
  }
  return positions;
}

/**
 * The canvas auto-layout fits an agent to when it does not know the real one: a 1440×900 window with
 * both side panels at their first widths, less the legend's strip at the top.
 */
export const DEFAULT_LAYOUT_VIEW = { width: 788, height: 784 } as const;

/** The zoom rows are wrapped for: names (12.5 px) at 11 px or more. */
const WRAP_TARGET_ZOOM = 0.9;
const WRAP_ROW_GAP = 80;

/** Top-level entries (loose tools and group frames) wrapped into rows that fit `view`. */
export function getWrappedLayout(
  positions: Record<string, Position>,
  view: { width: number; height: number },
): Record<string, Position> {
  const boxes: LayoutBox[] = Object.entries(positions).map(([key, position]) => ({
    key,
    x: position.x,
    y: position.y,
    width: position.width ?? TOOL_NODE_SIZE.width,
    height: position.height ?? TOOL_NODE_SIZE.height,
  }));
  const wrapped = getWrappedPositions(boxes, { view, targetZoom: WRAP_TARGET_ZOOM, rowGap: WRAP_ROW_GAP });
  const result = { ...positions };
  for (const [key, point] of Object.entries(wrapped)) {
    const position = positions[key];
    if (position) result[key] = { ...position, ...point };
  }
  return result;
}

/**
 * Lays the spec out left to right with ELK, wraps long rows so that the agent fits `view` (the canvas, in
 * screen pixels) at a readable zoom, and returns the change that moves every node (null: empty).
 */
export async function getAutoLayoutChange(
  spec: AgentSpec,
  elk: ElkLayouter,
  options: { view?: { width: number; height: number } } = {},
): Promise<SpecChange | null> {
  if (spec.tools.length === 0 && spec.groups.length === 0) return null;
  const laidOut = await elk.layout(getElkGraph(spec));
  const grouped = new Set(spec.groups.flatMap((group) => group.members));
  const positions = getElkPositions(laidOut);
  const topLevel = Object.fromEntries(Object.entries(positions).filter(([key]) => !grouped.has(key)));
  const wrapped = getWrappedLayout(topLevel, options.view ?? DEFAULT_LAYOUT_VIEW);
  return { type: "moveNodes", positions: { ...positions, ...wrapped } };
}

/** Loads elkjs on first use (it is large, and most page loads never auto-layout). */
export async function loadElk(): Promise<ElkLayouter> {
  const { default: ELK } = await import("elkjs/lib/elk.bundled.js");
  return new ELK();
}
