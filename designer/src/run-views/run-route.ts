/** The designer's routes: `#/agents/<agentId>` and `#/agents/<agentId>/runs/<runId>`. */
export interface AgentRoute {
  agentId: string;
  runId: string | null;
}

const ROUTE = /^#\/agents\/([a-z0-9][a-z0-9_-]{0,63})(?:\/runs\/([A-Za-z0-9_-]{1,200}))?\/?$/;

/** The agent (and run) a hash names, or null for any other hash. */
export function parseAgentRoute(hash: string): AgentRoute | null {
  const match = ROUTE.exec(hash);
  if (!match) return null;
  return { agentId: match[1]!, runId: match[2] ?? null };
}

/** The hash for an agent, or one of its runs; "" when no agent is open. */
export function getAgentRouteHash(route: { agentId: string | null; runId?: string | null }): string {
  if (!route.agentId) return "";
  return route.runId
    ? `#/agents/${route.agentId}/runs/${encodeURIComponent(route.runId)}`
    : `#/agents/${route.agentId}`;
}
