import type { AgentSpec } from "@waddle/protocol";
import { createUniqueName } from "../graph/create-unique-name.js";
import {
  getAbsolutePosition,
  getFrameAround,
  getGroupIdFromKey,
  getGroupOfTool,
  getGroupKey,
} from "../model/layout-geometry.js";
import type { Selection } from "../model/selection.js";
import type { SpecChange } from "../model/spec-change.js";

/** Selected tool names (not group frames). */
export function getSelectedTools(spec: AgentSpec, selection: Selection): string[] {
  const names = new Set(spec.tools.map((tool) => tool.name));
  return selection.nodes.filter((id) => names.has(id));
}

/** Selected group ids. */
export function getSelectedGroups(selection: Selection): string[] {
  return selection.nodes.flatMap((id) => getGroupIdFromKey(id) ?? []);
}

/** Deleting the selection: tools, groups (their members stay) and edges. */
export function getDeleteChange(spec: AgentSpec, selection: Selection): SpecChange | null {
  const tools = getSelectedTools(spec, selection);
  const groups = getSelectedGroups(selection);
  const edges = selection.edges.filter((id) => spec.edges.some((edge) => edge.id === id));
  if (tools.length + groups.length + edges.length === 0) return null;
  return { type: "removeElements", tools, groups, edges };
}

/** A new parallel group around the selected tools (taking them out of other groups). */
export function getGroupSelectionChange(
  spec: AgentSpec,
  selection: Selection,
): { change: SpecChange; groupId: string } | null {
  const members = getSelectedTools(spec, selection);
  if (members.length === 0) return null;
  const frame = getFrameAround(members.map((name) => getAbsolutePosition(spec, name)));
  const id = createUniqueName({ base: "group", taken: spec.groups.map((group) => group.id), separator: "-" });
  const name = createUniqueName({
    base: "Parallel group",
    taken: spec.groups.map((group) => group.name),
    separator: " ",
  });
  return {
    groupId: id,
    change: {
      type: "addGroup",
      group: { id, kind: "parallel", name, members },
      frame: { ...frame, x: Math.round(frame.x), y: Math.round(frame.y) },
    },
  };
}

/** Takes the selected tools out of their groups, leaving them where they are. */
export function getLeaveGroupChange(spec: AgentSpec, selection: Selection): SpecChange | null {
  const changes: SpecChange[] = getSelectedTools(spec, selection)
    .filter((name) => getGroupOfTool(spec, name) !== undefined)
    .map((name) => ({
      type: "setMembership",
      tool: name,
      groupId: null,
      position: getAbsolutePosition(spec, name),
    }));
  if (changes.length === 0) return null;
  return changes.length === 1 && changes[0]
    ? changes[0]
    : { type: "batch", label: "remove from group", changes };
}

/** Everything on the canvas, as a selection. */
export function getSelectAll(spec: AgentSpec): Selection {
  return {
    nodes: [...spec.groups.map((group) => getGroupKey(group.id)), ...spec.tools.map((tool) => tool.name)],
    edges: spec.edges.map((edge) => edge.id),
  };
}
