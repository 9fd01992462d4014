import type { AgentSpec, PlanningHints } from "@waddle/protocol";
import { addGroup, moveNodes, setMembership, updateGroup } from "./group-edits.js";
import { mergeDefined } from "./merge-defined.js";
import type { SpecChange, ToolHintList } from "../model/spec-change.js";
import { addTool, removeElements, renameTool, setLayoutEntries, updateTool } from "./tool-edits.js";

/**
 * Applies one change to a spec, purely: the input is never mutated, untouched parts keep their identity,
 * and a change that would do nothing returns the same spec (so the store records no history entry).
 */
export function applySpecChange(spec: AgentSpec, change: SpecChange): AgentSpec {
  switch (change.type) {
    case "addTool":
      return addTool(spec, change);
    case "updateTool":
      return updateTool(spec, change);
    case "renameTool":
      return renameTool(spec, change);
    case "removeElements":
      return removeElements(spec, change);
    case "moveNodes":
      return moveNodes(spec, change.positions);
    case "setMembership":
      return setMembership(spec, change);
    case "addEdge":
      return spec.edges.some((edge) => edge.id === change.edge.id)
        ? spec
        : { ...spec, edges: [...spec.edges, change.edge] };
    case "updateEdge":
      return updateEdge(spec, change);
    case "addGroup":
      return addGroup(spec, change);
    case "updateGroup":
      return updateGroup(spec, change);
    case "updateAgent":
      return mergeDefined(spec, change.patch);
    case "setLlm":
      if (change.slot === "llm" && !change.value) return spec;
      return mergeDefined(spec, { [change.slot]: change.value });
    case "updatePlanner":
      return withPart(spec, "planner", mergeDefined(spec.planner, change.patch));
    case "updateHints":
      return withPart(spec, "hints", mergeDefined(spec.hints, change.patch));
    case "setToolHint":
      return withPart(spec, "hints", setToolHint(spec.hints, change));
    case "addElements":
      return addElements(spec, change);
    case "replaceSpec":
      // an import or restore of what is already there changes nothing
      return JSON.stringify(change.spec) === JSON.stringify(spec) ? spec : change.spec;
    case "batch":
      return change.changes.reduce(applySpecChange, spec);
  }
}

function withPart<K extends "planner" | "hints">(spec: AgentSpec, key: K, value: AgentSpec[K]): AgentSpec {
  return value === spec[key] ? spec : { ...spec, [key]: value };
}

function updateEdge(spec: AgentSpec, change: Extract<SpecChange, { type: "updateEdge" }>): AgentSpec {
  let changed = false;
  const edges = spec.edges.map((edge) => {
    if (edge.id !== change.id) return edge;
    const next = mergeDefined(edge, change.patch);
    changed ||= next !== edge;
    return next;
  });
  return changed ? { ...spec, edges } : spec;
}

function setToolHint(
  hints: PlanningHints,
  options: { tool: string; list: ToolHintList; enabled: boolean },
): PlanningHints {
  const names = hints[options.list];
  const present = names.includes(options.tool);
  if (present === options.enabled) return hints;
  return {
    ...hints,
    [options.list]: options.enabled
      ? [...names, options.tool]
      : names.filter((name) => name !== options.tool),
  };
}

function addElements(spec: AgentSpec, change: Extract<SpecChange, { type: "addElements" }>): AgentSpec {
  const toolNames = new Set(spec.tools.map((tool) => tool.name));
  const edgeIds = new Set(spec.edges.map((edge) => edge.id));
  const groupIds = new Set(spec.groups.map((group) => group.id));
  const tools = change.tools.filter((tool) => !toolNames.has(tool.name));
  const edges = change.edges.filter((edge) => !edgeIds.has(edge.id));
  const groups = change.groups.filter((group) => !groupIds.has(group.id));
  if (tools.length + edges.length + groups.length === 0) return spec;
  const next = {
    ...spec,
    tools: [...spec.tools, ...tools],
    edges: [...spec.edges, ...edges],
    groups: [...spec.groups, ...groups],
  };
  return setLayoutEntries(next, change.positions);
}
