/** The args of each tool's last test call in this page, by agent and tool. */
const lastArgs = new Map<string, unknown>();

const keyOf = (agentId: string | null, tool: string) => `${agentId ?? ""}\u0000${tool}`;

export function getLastToolArgs(agentId: string | null, tool: string): unknown {
  return lastArgs.get(keyOf(agentId, tool));
}

export function rememberToolArgs(agentId: string | null, tool: string, args: unknown): void {
  lastArgs.set(keyOf(agentId, tool), args);
}
