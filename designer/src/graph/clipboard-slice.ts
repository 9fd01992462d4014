import type { AgentSpec, Edge, ParallelGroup, Position, ToolSpec } from "@waddle/protocol";
import type { Selection } from "../model/selection.js";
import type { SpecChange } from "../model/spec-change.js";
import { createUniqueName, toSlug } from "./create-unique-name.js";
import {
  getAbsolutePosition,
  getGroupIdFromKey,
  getGroupKey,
  getGroupOfTool,
  getStoredPosition,
} from "../model/layout-geometry.js";
import type { XYPosition } from "../model/geometry.js";

/** Copied elements: tools, the edges among them, whole groups; positions as stored in a layout. */
export interface ClipboardSlice {
  tools: ToolSpec[];
  edges: Edge[];
  groups: ParallelGroup[];
  positions: Record<string, Position>;
}

/**
 * What copying the selection takes: selected tools and groups (a group brings all its members), the edges
 * between copied tools. Members of copied groups keep positions relative to their frame.
 */
export function getClipboardSlice(spec: AgentSpec, selection: Selection): ClipboardSlice | null {
  const groupIds = new Set(selection.nodes.flatMap((id) => getGroupIdFromKey(id) ?? []));
  const groups = spec.groups.filter((group) => groupIds.has(group.id));
  const names = new Set([
    ...selection.nodes.filter((id) => getGroupIdFromKey(id) === undefined),
    ...groups.flatMap((group) => group.members),
  ]);
  const tools = spec.tools.filter((tool) => names.has(tool.name));
  if (tools.length === 0 && groups.length === 0) return null;
  const positions: Record<string, Position> = {};
  for (const group of groups)
    positions[getGroupKey(group.id)] = getStoredPosition(spec, getGroupKey(group.id));
  for (const tool of tools) {
    const group = getGroupOfTool(spec, tool.name);
    positions[tool.name] =
      group && groupIds.has(group.id)
        ? getStoredPosition(spec, tool.name)
        : getAbsolutePosition(spec, tool.name);
  }
  const edges = spec.edges.filter((edge) => names.has(edge.source) && names.has(edge.target));
  return { tools, edges, groups, positions };
}

/**
 * The change that pastes a slice, shifted by `offset`: names and ids that are taken get a suffix, and
 * references inside the slice follow. Also returns the selection of the pasted elements.
 */
export function getPasteChange(
  spec: AgentSpec,
  options: { slice: ClipboardSlice; offset: XYPosition },
): { change: SpecChange; selection: Selection } {
  const { slice, offset } = options;
  const takenNames = spec.tools.map((tool) => tool.name);
  const toolNames = new Map<string, string>();
  for (const tool of slice.tools) {
    const name = createUniqueName({ base: tool.name, taken: takenNames });
    takenNames.push(name);
    toolNames.set(tool.name, name);
  }
  const rename = (name: string) => toolNames.get(name) ?? name;
  const takenGroups = spec.groups.map((group) => group.id);
  const groupIds = new Map<string, string>();
  for (const group of slice.groups) {
    const id = createUniqueName({ base: toSlug(group.id, "group"), taken: takenGroups, separator: "-" });
    takenGroups.push(id);
    groupIds.set(group.id, id);
  }
  const takenEdges = spec.edges.map((edge) => edge.id);
  const edges = slice.edges.map((edge) => {
    const id = createUniqueName({ base: edge.id, taken: takenEdges, separator: "-" });
    takenEdges.push(id);
    return { ...edge, id, source: rename(edge.source), target: rename(edge.target) };
  });
  const groups = slice.groups.map((group) => ({
    ...group,
    id: groupIds.get(group.id) ?? group.id,
    members: group.members.map(rename),
    ...(group.join ? { join: { ...group.join, tool: rename(group.join.tool) } } : {}),
  }));
  const inCopiedGroup = new Set(slice.groups.flatMap((group) => group.members));
  const positions: Record<string, Position> = {};
  for (const group of slice.groups) {
    const stored = slice.positions[getGroupKey(group.id)];
    if (stored) positions[getGroupKey(groupIds.get(group.id) ?? group.id)] = shift(stored, offset);
  }
  for (const tool of slice.tools) {
    const stored = slice.positions[tool.name];
    if (stored) positions[rename(tool.name)] = inCopiedGroup.has(tool.name) ? stored : shift(stored, offset);
  }
  const tools = slice.tools.map((tool) => ({ ...tool, name: rename(tool.name) }));
  return {
    change: { type: "addElements", tools, edges, groups, positions },
    selection: {
      nodes: [
        ...groups.map((group) => getGroupKey(group.id)),
        ...tools
          .filter((tool) => !groups.some((group) => group.members.includes(tool.name)))
          .map((tool) => tool.name),
      ],
      edges: [],
    },
  };
}

function shift(position: Position, offset: XYPosition): Position {
  return { ...position, x: position.x + offset.x, y: position.y + offset.y };
}

/**
 * How far to shift a paste so that it does not land exactly on an earlier paste: `step` down and right,
 * then twice that, and so on while a pasted top-level node would sit where a node already is (each
 * paste of the same slice used to go to the same spot, hiding the copies under each other).
 */
export function getPasteOffset(
  spec: AgentSpec,
  options: { slice: ClipboardSlice; step: number },
): XYPosition {
  const { slice, step } = options;
  // tools are compared with tools and frames with frames: a frame's corner near a member is no clash
  const frames = spec.groups.map((group) => getAbsolutePosition(spec, getGroupKey(group.id)));
  const tools = spec.tools.map((tool) => getAbsolutePosition(spec, tool.name));
  const inCopiedGroup = new Set(slice.groups.flatMap((group) => group.members));
  const pasted = Object.entries(slice.positions)
    .filter(([key]) => !inCopiedGroup.has(key))
    .map(([key, position]) => ({ position, others: getGroupIdFromKey(key) === undefined ? tools : frames }));
  const near = (a: XYPosition, b: XYPosition) =>
    Math.abs(a.x - b.x) < step / 2 && Math.abs(a.y - b.y) < step / 2;
  for (let times = 1; times < 100; times++) {
    const offset = { x: step * times, y: step * times };
    const clash = pasted.some(({ position, others }) =>
      others.some((other) => near(shift(position, offset), other)),
    );
    if (!clash) return offset;
  }
  return { x: step, y: step };
}
