import type { AgentSpecInput } from "@waddle/protocol";

/** The shape of the agent the designer benchmark opens, runs and replays. */
export interface BenchAgentShape {
  id: string;
  /** Mock tools `tool_0` … `tool_<n-1>`. */
  tools: number;
  /** Edges in all: the chain first, then skips of two, three, … tools, alternating auto-seq and order. */
  edges: number;
}

export const DESIGNER_BENCH_AGENT: BenchAgentShape = { id: "designer-bench", tools: 300, edges: 600 };

const COLUMNS = 12;
const GROUP_EVERY = 15;
const GROUP_SIZE = 3;

export function getToolName(index: number): string {
  return `tool_${index}`;
}

/** The parallel groups: the first three tools of every fifteen (as designer/src/testing/make-large-spec.ts). */
export function getBenchGroups(tools: number): { id: string; members: string[] }[] {
  return Array.from({ length: Math.floor(tools / GROUP_EVERY) }, (_, index) => ({
    id: `group-${index}`,
    members: Array.from({ length: GROUP_SIZE }, (_, member) => getToolName(index * GROUP_EVERY + member)),
  }));
}

/** Pairs of tool indices: i → i+1 for every i, then i → i+2, i → i+3, … until there are `count`. */
function getEdgePairs(tools: number, count: number): [number, number][] {
  const pairs: [number, number][] = [];
  for (let skip = 1; pairs.length < count && skip < tools; skip += 1) {
    for (let source = 0; pairs.length < count && source + skip < tools; source += 1) {
      pairs.push([source, source + skip]);
    }
  }
  if (pairs.length < count)
    throw new RangeError(`${tools} tools cannot hold ${count} distinct forward edges.`);
  return pairs;
}

/**
 * A large agent as the REST API takes it: mock tools with a string `text` in and out (auto-seq marked, and
 * detected but not executed), laid out twelve to a row, a parallel group on the first three of every
 * fifteen tools (the frames in a band below), and `edges` forward edges. It validates with no issue.
 */
export function makeBenchAgentSpec(shape: BenchAgentShape = DESIGNER_BENCH_AGENT): AgentSpecInput {
  const names = Array.from({ length: shape.tools }, (_, index) => getToolName(index));
  const groups = getBenchGroups(shape.tools);
  const grouped = new Set(groups.flatMap((group) => group.members));
  const nodes: Record<string, { x: number; y: number; width?: number; height?: number }> = {};
  names
    .filter((name) => !grouped.has(name))
    .forEach(
      (name, index) => (nodes[name] = { x: (index % COLUMNS) * 320, y: Math.floor(index / COLUMNS) * 160 }),
    );
  // the group frames in a band below the grid, their members stacked inside (positions relative to it)
  const bandTop = Math.ceil((names.length - grouped.size) / COLUMNS) * 160 + 80;
  groups.forEach((group, index) => {
    const x = (index % COLUMNS) * 320;
    const y = bandTop + Math.floor(index / COLUMNS) * 520;
    nodes[`group:${group.id}`] = { x, y, width: 288, height: 440 };
    group.members.forEach((member, position) => (nodes[member] = { x: 24, y: 48 + position * 124 }));
  });
  const schema = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
  return {
    version: 1,
    id: shape.id,
    name: "Designer benchmark agent",
    description: `${shape.tools} mock tools and ${shape.edges} edges, for the designer benchmark.`,
    llm: { provider: "offline", model: "offline" },
    // the live run walks every tool once: room for all of them and the answer
    // auto-seq detects (the run's events say which edge fits) but never skips the model's call
    planner: { maxIters: Math.min(1000, shape.tools + 10), autoSeq: { enabled: true, execute: false } },
    tools: names.map((name) => ({
      name,
      desc: `Step ${name} of the benchmark chain`,
      argsSchema: schema,
      outSchema: schema,
      impl: { kind: "mock", output: { text: "{{args.text}}" } },
      autoSeq: true,
    })),
    edges: getEdgePairs(shape.tools, shape.edges).map(([source, target], index) => ({
      id: `e-${index}`,
      kind: index % 2 ? "order" : "auto_seq",
      source: names[source]!,
      target: names[target]!,
    })),
    groups: groups.map((group, index) => ({
      id: group.id,
      kind: "parallel",
      name: `Group ${index}`,
      members: group.members,
    })),
    layout: { nodes },
  };
}
