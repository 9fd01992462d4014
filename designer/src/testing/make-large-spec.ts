import { AgentSpec } from "@waddle/protocol";
import { makeTool } from "./make-spec.js";

/** A big agent for load tests: `count` tools in a chain of auto-seq and order edges, groups of three. */
export function makeLargeSpec(count: number): AgentSpec {
  const names = Array.from({ length: count }, (_, index) => `tool_${index}`);
  const groups = Array.from({ length: Math.floor(count / 15) }, (_, index) => ({
    id: `group-${index}`,
    kind: "parallel" as const,
    name: `Group ${index}`,
    members: names.slice(index * 15, index * 15 + 3),
  }));
  const nodes: Record<string, { x: number; y: number; width?: number; height?: number }> = {};
  names.forEach((name, index) => (nodes[name] = { x: (index % 12) * 320, y: Math.floor(index / 12) * 160 }));
  for (const group of groups) {
    const first = nodes[group.members[0] ?? ""] ?? { x: 0, y: 0 };
    nodes[`group:${group.id}`] = { x: first.x - 24, y: first.y - 48, width: 288, height: 480 };
    group.members.forEach((member, index) => (nodes[member] = { x: 24, y: 48 + index * 130 }));
  }
  return AgentSpec.parse({
    version: 1,
    id: "large-agent",
    name: "Large agent",
    tools: names.map((name) => makeTool(name)),
    edges: names.slice(1).map((name, index) => ({
      id: `e-${index}`,
      kind: index % 2 ? "order" : "auto_seq",
      source: names[index],
      target: name,
    })),
    groups,
    layout: { nodes },
  });
}
