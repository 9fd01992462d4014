import type { AgentSpec } from "@waddle/protocol";

/**
 * The order the `order` edges imply: tools that take part, sorted topologically (ties by tool order).
 * `cycle` lists the tools left over when the edges form a cycle.
 */
export function getOrderingChain(spec: AgentSpec): { chain: string[]; cycle: string[] } {
  const orderEdges = spec.edges.filter((edge) => edge.kind === "order");
  const rank = new Map(spec.tools.map((tool, index) => [tool.name, index]));
  const involved = new Set(
    orderEdges.flatMap((edge) => [edge.source, edge.target]).filter((name) => rank.has(name)),
  );
  const incoming = new Map([...involved].map((name) => [name, 0]));
  const outgoing = new Map<string, string[]>();
  for (const edge of orderEdges) {
    if (!involved.has(edge.source) || !involved.has(edge.target)) continue;
    incoming.set(edge.target, (incoming.get(edge.target) ?? 0) + 1);
    outgoing.set(edge.source, [...(outgoing.get(edge.source) ?? []), edge.target]);
  }
  const byRank = (a: string, b: string) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0);
  const ready = [...involved].filter((name) => incoming.get(name) === 0).sort(byRank);
  const chain: string[] = [];
  while (ready.length > 0) {
    const name = ready.shift() as string;
    chain.push(name);
    for (const next of outgoing.get(name) ?? []) {
      const left = (incoming.get(next) ?? 0) - 1;
      incoming.set(next, left);
      if (left === 0) {
        ready.push(next);
        ready.sort(byRank);
      }
    }
  }
  const cycle = [...involved].filter((name) => !chain.includes(name)).sort(byRank);
  return { chain, cycle };
}
