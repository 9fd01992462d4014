/**
 * The designer's routes: `#/agents/<agentId>`, `#/agents/<agentId>/runs/<runId>` and
 * `#/agents/<agentId>/sessions/<sessionId>` (a chat in the run panel's Chat tab).
 */
export interface AgentRoute {
  agentId: string;
  runId: string | null;
  /** Present only on a chat's route. */
  sessionId?: string;
}

const ROUTE =
  /^#\/agents\/([a-z0-9][a-z0-9_-]{0,63})(?:\/runs\/([A-Za-z0-9_-]{1,200})|\/sessions\/(ses_[A-Za-z0-9_-]{1,80}))?\/?$/;

/** The agent (and run, or chat) a hash names, or null for any other hash. */
export function parseAgentRoute(hash: string): AgentRoute | null {
  const match = ROUTE.exec(hash);
  if (!match) return null;
  return { agentId: match[1]!, runId: match[2] ?? null, ...(match[3] ? { sessionId: match[3] } : {}) };
}

/** The hash for an agent, one of its runs or one of its chats; "" when no agent is open. */
export function getAgentRouteHash(route: {
  agentId: string | null;
  runId?: string | null;
  sessionId?: string | null;
}): string {
  if (!route.agentId) return "";
  if (route.sessionId) return `#/agents/${route.agentId}/sessions/${encodeURIComponent(route.sessionId)}`;
  return route.runId
    ? `#/agents/${route.agentId}/runs/${encodeURIComponent(route.runId)}`
    : `#/agents/${route.agentId}`;
}
