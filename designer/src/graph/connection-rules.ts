import type { AgentSpec, Edge, EdgeKind } from "@waddle/protocol";
import type { SpecChange } from "../model/spec-change.js";
import { createUniqueName, toSlug } from "./create-unique-name.js";

export interface ConnectionRequest {
  source: string;
  target: string;
  kind: EdgeKind;
}

/** Why a connection cannot be drawn, or null when it can. Shown while connecting. */
export function getConnectionProblem(spec: AgentSpec, request: ConnectionRequest): string | null {
  const names = new Set(spec.tools.map((tool) => tool.name));
  if (!names.has(request.source) || !names.has(request.target)) return "Edges connect two tools.";
  if (request.source === request.target) return "A tool cannot follow itself.";
  const duplicate = spec.edges.some(
    (edge) => edge.kind === request.kind && edge.source === request.source && edge.target === request.target,
  );
  if (duplicate) return `There is already a${request.kind === "order" ? "n order" : "n auto-seq"} edge here.`;
  return null;
}

/** A new edge with an id unique in the spec (`source-target`, slugged). */
export function createSpecEdge(spec: AgentSpec, request: ConnectionRequest): Edge {
  const base = toSlug(`${request.source}-${request.target}`, "edge");
  const id = createUniqueName({ base, taken: spec.edges.map((edge) => edge.id), separator: "-" });
  return { id, kind: request.kind, source: request.source, target: request.target };
}

/**
 * The change that draws an edge. An auto-seq edge also turns on `autoSeq` for its target and auto-seq
 * detection for the agent, since the edge has no effect without them (auto-execution stays a choice made
 * in the inspector). Returns null when the connection is not allowed.
 */
export function getConnectChange(spec: AgentSpec, request: ConnectionRequest): SpecChange | null {
  if (getConnectionProblem(spec, request)) return null;
  const edge = createSpecEdge(spec, request);
  const changes: SpecChange[] = [{ type: "addEdge", edge }];
  if (request.kind === "auto_seq") {
    const target = spec.tools.find((tool) => tool.name === request.target);
    if (target && !target.autoSeq) {
      changes.push({ type: "updateTool", name: request.target, patch: { autoSeq: true } });
    }
    if (!spec.planner.autoSeq.enabled) {
      changes.push({ type: "updatePlanner", patch: { autoSeq: { ...spec.planner.autoSeq, enabled: true } } });
    }
  }
  if (changes.length === 1) return changes[0] ?? null;
  return { type: "batch", label: `connect ${request.source} → ${request.target}`, changes };
}
