import type { AgentSpec, ParallelGroup, Position } from "@waddle/protocol";
import { getAbsolutePosition, getGroupKey, getGroupOfTool } from "../model/layout-geometry.js";
import { mergeDefined } from "./merge-defined.js";
import { placeTool, setLayoutEntries } from "./tool-edits.js";
import type { Rect, XYPosition } from "../model/geometry.js";

/** Moves a tool into a group (or out of any, with `groupId: null`) and places it at an absolute point. */
export function setMembership(
  spec: AgentSpec,
  options: { tool: string; groupId: string | null; position: XYPosition },
): AgentSpec {
  const { tool, groupId } = options;
  if (!spec.tools.some((candidate) => candidate.name === tool)) return spec;
  if (groupId !== null && !spec.groups.some((group) => group.id === groupId)) return spec;
  const current = getGroupOfTool(spec, tool);
  if ((current?.id ?? null) === groupId) return placeTool(spec, { tool, position: options.position });
  const groups = spec.groups.map((group) => {
    if (group.id === current?.id) return { ...group, members: group.members.filter((name) => name !== tool) };
    if (group.id === groupId) return { ...group, members: [...group.members, tool] };
    return group;
  });
  return placeTool({ ...spec, groups }, { tool, position: options.position });
}

/**
 * Adds a parallel group with its frame. Members leave any other group and keep their place on the canvas
 * (their layout becomes relative to the new frame).
 */
export function addGroup(spec: AgentSpec, options: { group: ParallelGroup; frame: Rect }): AgentSpec {
  if (spec.groups.some((group) => group.id === options.group.id)) return spec;
  const members = options.group.members.filter((name) => spec.tools.some((tool) => tool.name === name));
  const memberSet = new Set(members);
  const absolute = new Map(members.map((name) => [name, getAbsolutePosition(spec, name)]));
  const { frame } = options;
  const entries: Record<string, Position> = {
    [getGroupKey(options.group.id)]: { x: frame.x, y: frame.y, width: frame.width, height: frame.height },
  };
  for (const [name, point] of absolute) {
    entries[name] = { x: Math.round(point.x - frame.x), y: Math.round(point.y - frame.y) };
  }
  const next: AgentSpec = {
    ...spec,
    groups: [
      ...spec.groups.map((group) =>
        group.members.some((name) => memberSet.has(name))
          ? { ...group, members: group.members.filter((name) => !memberSet.has(name)) }
          : group,
      ),
      { ...options.group, members },
    ],
  };
  return setLayoutEntries(next, entries);
}

/** Edits a group's name, `maxParallel` or join (`undefined` clears an optional field). */
export function updateGroup(
  spec: AgentSpec,
  options: { id: string; patch: Partial<Omit<ParallelGroup, "id" | "kind" | "members">> },
): AgentSpec {
  let changed = false;
  const groups = spec.groups.map((group) => {
    if (group.id !== options.id) return group;
    const next = mergeDefined(group, options.patch);
    changed ||= next !== group;
    return next;
  });
  return changed ? { ...spec, groups } : spec;
}

/** Writes layout entries as stored (members relative to their frame); unknown keys are ignored. */
export function moveNodes(spec: AgentSpec, positions: Record<string, Position>): AgentSpec {
  const known = new Set([
    ...spec.tools.map((tool) => tool.name),
    ...spec.groups.map((group) => getGroupKey(group.id)),
  ]);
  const entries: Record<string, Position> = {};
  for (const [key, position] of Object.entries(positions)) {
    const stored = spec.layout.nodes[key];
    if (!known.has(key)) continue;
    const next = { ...stored, ...position };
    if (stored && isSamePosition(stored, next)) continue;
    entries[key] = next;
  }
  return Object.keys(entries).length > 0 ? setLayoutEntries(spec, entries) : spec;
}

function isSamePosition(a: Position, b: Position): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}
