import type { AgentSpec, PlanningHints, Position, ToolSpec } from "@waddle/protocol";
import {
  getAbsolutePosition,
  getGroupKey,
  getGroupOfTool,
  getGroupRect,
  GROUP_PADDING,
  TOOL_NODE_SIZE,
} from "../model/layout-geometry.js";
import { mergeDefined } from "./merge-defined.js";
import type { XYPosition } from "../model/geometry.js";

/** Sets (or with `undefined`, deletes) layout entries. */
export function setLayoutEntries(spec: AgentSpec, entries: Record<string, Position | undefined>): AgentSpec {
  const nodes = { ...spec.layout.nodes };
  for (const [key, position] of Object.entries(entries)) {
    if (position === undefined) delete nodes[key];
    else nodes[key] = position;
  }
  return { ...spec, layout: { ...spec.layout, nodes } };
}

/**
 * Puts a tool at an absolute position, inside a group frame (stored relative to it, the frame growing to
 * hold it) or on the canvas. Group membership must already be set.
 */
export function placeTool(spec: AgentSpec, options: { tool: string; position: XYPosition }): AgentSpec {
  const group = getGroupOfTool(spec, options.tool);
  if (!group) return setLayoutEntries(spec, { [options.tool]: round(options.position) });
  const frame = getGroupRect(spec, group.id);
  const relative = {
    x: Math.max(options.position.x - frame.x, GROUP_PADDING.side),
    y: Math.max(options.position.y - frame.y, GROUP_PADDING.top),
  };
  const width = Math.max(frame.width, relative.x + TOOL_NODE_SIZE.width + GROUP_PADDING.side);
  const height = Math.max(frame.height, relative.y + TOOL_NODE_SIZE.height + GROUP_PADDING.bottom);
  return setLayoutEntries(spec, {
    [options.tool]: round(relative),
    [getGroupKey(group.id)]: { x: frame.x, y: frame.y, width, height },
  });
}

function round(position: XYPosition): Position {
  return { x: Math.round(position.x), y: Math.round(position.y) };
}

export function addTool(
  spec: AgentSpec,
  options: { tool: ToolSpec; position: XYPosition; groupId?: string },
): AgentSpec {
  if (spec.tools.some((tool) => tool.name === options.tool.name)) return spec;
  const groupId = options.groupId;
  const withTool: AgentSpec = {
    ...spec,
    tools: [...spec.tools, options.tool],
    groups:
      groupId === undefined
        ? spec.groups
        : spec.groups.map((group) =>
            group.id === groupId ? { ...group, members: [...group.members, options.tool.name] } : group,
          ),
  };
  return placeTool(withTool, { tool: options.tool.name, position: options.position });
}

/** Merges a patch into one tool; the name changes only through `renameTool`. */
export function updateTool(spec: AgentSpec, options: { name: string; patch: Partial<ToolSpec> }): AgentSpec {
  const { name: _ignored, ...patch } = options.patch;
  let changed = false;
  const tools = spec.tools.map((tool) => {
    if (tool.name !== options.name) return tool;
    const next = mergeDefined(tool, patch);
    changed ||= next !== tool;
    return next;
  });
  return changed ? { ...spec, tools } : spec;
}

const HINT_LISTS = ["ordering_hints", "sequential_only", "disallow_nodes", "prefer_nodes"] as const;

function mapHintNames(hints: PlanningHints, map: (name: string) => string | undefined): PlanningHints {
  const keep = (names: string[]) => names.flatMap((name) => map(name) ?? []);
  const next = { ...hints };
  for (const key of HINT_LISTS) next[key] = keep(hints[key]);
  next.parallel_groups = hints.parallel_groups.map(keep).filter((group) => group.length > 0);
  return next;
}

/** Renames a tool and every reference to it: edges, groups, joins, hints and its layout entry. */
export function renameTool(spec: AgentSpec, options: { from: string; to: string }): AgentSpec {
  const { from, to } = options;
  if (from === to || !spec.tools.some((tool) => tool.name === from)) return spec;
  if (spec.tools.some((tool) => tool.name === to)) return spec;
  const rename = (name: string) => (name === from ? to : name);
  const { [from]: position, ...otherNodes } = spec.layout.nodes;
  return {
    ...spec,
    tools: spec.tools.map((tool) => (tool.name === from ? { ...tool, name: to } : tool)),
    edges: spec.edges.map((edge) =>
      edge.source === from || edge.target === from
        ? { ...edge, source: rename(edge.source), target: rename(edge.target) }
        : edge,
    ),
    groups: spec.groups.map((group) => {
      if (!group.members.includes(from) && group.join?.tool !== from) return group;
      const members = group.members.map(rename);
      return group.join
        ? { ...group, members, join: { ...group.join, tool: rename(group.join.tool) } }
        : { ...group, members };
    }),
    hints: mapHintNames(spec.hints, rename),
    guards: mapGuardTools(spec.guards, rename),
    layout: { ...spec.layout, nodes: position ? { ...otherNodes, [to]: position } : otherNodes },
  };
}

/**
 * Guards' `tools` after a rename or a delete. A guard left watching none keeps the deleted name (an issue
 * says so) rather than silently watching every tool, which an absent `tools` means.
 */
function mapGuardTools(guards: AgentSpec["guards"], map: (name: string) => string | undefined) {
  if (!guards.some((guard) => guard.tools?.some((name) => map(name) !== name))) return guards;
  return guards.map((guard) => {
    if (!guard.tools?.some((name) => map(name) !== name)) return guard;
    const tools = guard.tools.flatMap((name) => map(name) ?? []);
    return tools.length > 0 ? { ...guard, tools } : guard;
  });
}

/**
 * Deletes tools, edges and groups. Edges touching a deleted tool go too, and so do its hints and group
 * memberships; members of a deleted group stay on the canvas where they were.
 */
export function removeElements(
  spec: AgentSpec,
  options: { tools?: string[]; edges?: string[]; groups?: string[] },
): AgentSpec {
  const tools = new Set(options.tools ?? []);
  const edges = new Set(options.edges ?? []);
  const groups = new Set(options.groups ?? []);
  if (tools.size + edges.size + groups.size === 0) return spec;
  const layoutEntries: Record<string, Position | undefined> = {};
  for (const group of spec.groups.filter((candidate) => groups.has(candidate.id))) {
    layoutEntries[getGroupKey(group.id)] = undefined;
    for (const member of group.members) {
      if (!tools.has(member)) layoutEntries[member] = round(getAbsolutePosition(spec, member));
    }
  }
  for (const name of tools) layoutEntries[name] = undefined;
  const next: AgentSpec = {
    ...spec,
    tools: spec.tools.filter((tool) => !tools.has(tool.name)),
    edges: spec.edges.filter(
      (edge) => !edges.has(edge.id) && !tools.has(edge.source) && !tools.has(edge.target),
    ),
    groups: spec.groups
      .filter((group) => !groups.has(group.id))
      .map((group) => {
        const members = group.members.filter((member) => !tools.has(member));
        const joinGone = group.join !== undefined && tools.has(group.join.tool);
        if (members.length === group.members.length && !joinGone) return group;
        const { join, ...rest } = group;
        return joinGone || !join ? { ...rest, members } : { ...rest, members, join };
      }),
    hints:
      tools.size > 0 ? mapHintNames(spec.hints, (name) => (tools.has(name) ? undefined : name)) : spec.hints,
    guards: mapGuardTools(spec.guards, (name) => (tools.has(name) ? undefined : name)),
  };
  return setLayoutEntries(next, layoutEntries);
}
