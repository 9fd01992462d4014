import type { Permission } from "./permissions.js";

/**
 * How a route finds the agent it touches, for a key limited to some agents:
 * - `none`: no agent (tools, credentials, keys, health);
 * - `list`: a list its handler filters by the actor (`actorOf(response)`);
 * - `agent`: the `:id` (or `:model`) parameter is the agent id;
 * - `run`, `session`, `testRun`: the `:id` parameter is one, whose agent is read from the store;
 * - `body`: the JSON body's `agentId`, `spec.id`, `id` or `model`, and the agent of the session it names in
 *   `sessionId` (a turn, `POST /api/runs {sessionId}`): each must be the key's;
 * - `inside`: the endpoint scopes itself (`/mcp` lists and calls only the key's agents).
 */
export type ScopeKind = "none" | "list" | "agent" | "run" | "session" | "testRun" | "body" | "inside";

/**
 * `public`: no credential needed; `signed-in`: any actor. A public chat's routes (issue 33) have actors of
 * their own, checked by the chat's gate (server/src/public), never by an API key or the token:
 * `publishable-key`, the chat's key in `x-waddle-public-key`; `visitor`, that key and the token of the
 * session's own visitor. Neither credential opens any other route (the authenticator refuses them).
 */
export type RouteAccess = Permission | "public" | "signed-in" | "publishable-key" | "visitor";

/** True for the access of a public chat's route (`publishable-key`, `visitor`). */
export function isPublicChatAccess(access: RouteAccess): access is "publishable-key" | "visitor" {
  return access === "publishable-key" || access === "visitor";
}

export interface RouteRule {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "ALL";
  /** The route's full express pattern (`/api/agents/:id`); `*` as a last segment matches the rest. */
  path: string;
  access: RouteAccess;
  scope: ScopeKind;
}

const rule = (
  method: RouteRule["method"],
  path: string,
  access: RouteAccess,
  scope: ScopeKind = "none",
): RouteRule => ({ method, path, access, scope });

/**
 * The one permission table of every HTTP route. The access guard (access-guard.ts) applies it to each
 * request; access-table.test.ts fails when the app serves a route that is missing here.
 */
export const ROUTE_RULES: readonly RouteRule[] = [
  // meta
  rule("GET", "/api/health", "public"),
  rule("GET", "/api/tools", "tools:read"),
  rule("GET", "/api/schema/agent-spec.json", "tools:read"),
  rule("GET", "/api/mcp/servers", "tools:read"),
  rule("POST", "/api/tools/test", "tools:test"),
  // A guard check on a sample text (issue 35): the designer's sample box, as a tool test is (an llm check calls a model)
  rule("POST", "/api/guards/check", "tools:test", "body"),
  // access
  rule("GET", "/api/me", "signed-in"),
  rule("GET", "/api/keys", "keys:manage"),
  rule("POST", "/api/keys", "keys:manage"),
  rule("DELETE", "/api/keys/:id", "keys:manage"),
  rule("GET", "/api/audit", "audit:read"),
  // Reading a remote A2A Agent Card goes out through the allow-list: part of designing a tool
  rule("POST", "/api/a2a/card", "agents:write"),
  // agents
  rule("GET", "/api/agents", "agents:read", "list"),
  rule("POST", "/api/agents", "agents:write", "body"),
  rule("POST", "/api/agents/validate", "agents:write"),
  rule("POST", "/api/agents/server-check", "agents:write"),
  rule("POST", "/api/agents/import", "agents:write"),
  rule("GET", "/api/agents/:id", "agents:read", "agent"),
  rule("PUT", "/api/agents/:id", "agents:write", "agent"),
  rule("DELETE", "/api/agents/:id", "agents:write", "agent"),
  rule("GET", "/api/agents/:id/versions", "agents:read", "agent"),
  rule("GET", "/api/agents/:id/versions/:version", "agents:read", "agent"),
  rule("GET", "/api/agents/:id/export", "agents:read", "agent"),
  rule("GET", "/api/agents/:id/draft", "agents:read", "agent"),
  rule("PUT", "/api/agents/:id/draft", "agents:write", "agent"),
  rule("DELETE", "/api/agents/:id/draft", "agents:write", "agent"),
  // releases (issue 32): production also needs an admin or an editor key with canRelease (releases-routes.ts)
  rule("GET", "/api/agents/:id/channels", "agents:read", "agent"),
  rule("GET", "/api/agents/:id/releases", "agents:read", "agent"),
  rule("POST", "/api/agents/:id/releases", "agents:write", "agent"),
  rule("POST", "/api/agents/:id/channels/:channel/rollback", "agents:write", "agent"),
  rule("GET", "/api/agents/:id/diff", "agents:read", "agent"),
  // public chats (issue 33): editors publish; a viewer may read the publishable key (it is meant for pages)
  rule("GET", "/api/agents/:id/public", "agents:read", "agent"),
  rule("PUT", "/api/agents/:id/public", "agents:write", "agent"),
  rule("POST", "/api/agents/:id/public/rotate-key", "agents:write", "agent"),
  // shadow comparisons: creating one calls the candidate's LLM for every case (editor); reading is a viewer's
  rule("POST", "/api/agents/:id/shadow", "agents:write", "agent"),
  rule("GET", "/api/agents/:id/shadow", "agents:read", "agent"),
  rule("GET", "/api/agents/:id/shadow/:reportId", "agents:read", "agent"),
  // triggers (issue 34): an editor makes and changes them (a trigger starts runs); a viewer reads them
  rule("GET", "/api/agents/:id/triggers", "agents:read", "agent"),
  rule("POST", "/api/agents/:id/triggers", "agents:write", "agent"),
  rule("PATCH", "/api/agents/:id/triggers/:triggerId", "agents:write", "agent"),
  rule("DELETE", "/api/agents/:id/triggers/:triggerId", "agents:write", "agent"),
  rule("GET", "/api/agents/:id/triggers/:triggerId/fires", "agents:read", "agent"),
  // tests
  rule("GET", "/api/agents/:id/tests", "tests:read", "agent"),
  rule("PUT", "/api/agents/:id/tests", "tests:write", "agent"),
  rule("POST", "/api/agents/:id/tests", "tests:write", "agent"),
  rule("DELETE", "/api/agents/:id/tests/:caseId", "tests:write", "agent"),
  rule("GET", "/api/agents/:id/test-runs", "tests:read", "agent"),
  rule("POST", "/api/agents/:id/test-runs", "tests:write", "agent"),
  rule("GET", "/api/test-runs/:id", "tests:read", "testRun"),
  rule("POST", "/api/test-runs/:id/cancel", "tests:write", "testRun"),
  // runs
  rule("GET", "/api/runs", "runs:read", "list"),
  rule("POST", "/api/runs", "runs:start", "body"),
  rule("GET", "/api/runs/:id", "runs:read", "run"),
  rule("GET", "/api/runs/:id/events", "runs:read", "run"),
  rule("POST", "/api/runs/:id/cancel", "runs:cancel", "run"),
  rule("POST", "/api/runs/:id/fork", "runs:start", "run"),
  rule("POST", "/api/runs/:id/resume", "runs:decide", "run"),
  // sessions
  rule("GET", "/api/sessions", "sessions:read", "list"),
  rule("POST", "/api/sessions", "runs:start", "body"),
  rule("GET", "/api/sessions/:id", "sessions:read", "session"),
  rule("DELETE", "/api/sessions/:id", "runs:cancel", "session"),
  rule("POST", "/api/sessions/:id/turns", "runs:start", "session"),
  rule("GET", "/api/sessions/:id/events", "sessions:read", "session"),
  rule("POST", "/api/sessions/:id/merges/:mergeId", "runs:decide", "session"),
  rule("POST", "/api/sessions/:id/tasks/:taskId/cancel", "runs:cancel", "session"),
  // the approvals inbox: listed for the key's agents; marking an item is for those who may decide it
  rule("GET", "/api/inbox", "runs:read", "list"),
  rule("POST", "/api/inbox/:itemId/assign", "runs:decide", "inside"),
  rule("POST", "/api/inbox/:itemId/snooze", "runs:decide", "inside"),
  // credentials and allow-lists
  rule("GET", "/api/credentials", "credentials:manage"),
  rule("POST", "/api/credentials/check", "credentials:manage"),
  // The model list of a credential an agent names: editors pick a model from it. It answers no secret,
  // and reaches only allowed LLM endpoints, as a run with that credential would
  rule("POST", "/api/credentials/:name/test", "agents:write"),
  rule("PUT", "/api/credentials/:name", "credentials:manage"),
  rule("DELETE", "/api/credentials/:name", "credentials:manage"),
  rule("GET", "/api/allowlist", "credentials:manage"),
  rule("PUT", "/api/allowlist", "credentials:manage"),
  rule("POST", "/api/allowlist/check", "credentials:manage"),
  // notifications (issue 34): a webhook sends run data out and holds a signing secret, as credentials do
  rule("GET", "/api/webhooks", "credentials:manage"),
  rule("POST", "/api/webhooks", "credentials:manage"),
  rule("GET", "/api/webhooks/:id", "credentials:manage"),
  rule("PATCH", "/api/webhooks/:id", "credentials:manage"),
  rule("DELETE", "/api/webhooks/:id", "credentials:manage"),
  rule("POST", "/api/webhooks/:id/test", "credentials:manage"),
  rule("GET", "/api/webhooks/:id/deliveries", "credentials:manage"),
  // /v1 (OpenAI-compatible)
  rule("GET", "/v1/models", "agents:read", "list"),
  rule("GET", "/v1/models/:model", "agents:read", "agent"),
  rule("POST", "/v1/chat/completions", "runs:start", "body"),
  rule("POST", "/v1/responses", "runs:start", "body"),
  rule("GET", "/v1/responses/:id", "runs:read", "run"),
  // /mcp: one endpoint for every JSON-RPC message; it lists and calls only the key's agents
  rule("POST", "/mcp", "runs:start", "inside"),
  rule("DELETE", "/mcp", "runs:start", "inside"),
  rule("GET", "/mcp", "runs:start", "inside"),
  // Prometheus metrics and A2A (issue 24: viewer reads metrics, runner calls agents over A2A)
  rule("GET", "/metrics", "metrics:read"),
  // A2A: the Agent Card tells a client how to authenticate (public); JSON-RPC is a runner's, in scope
  rule("GET", "/a2a/:id/.well-known/agent-card.json", "public"),
  rule("POST", "/a2a/:id", "runs:start", "agent"),
  rule("ALL", "/a2a/*", "runs:start", "inside"),
  // AG-UI: a run of the agent in the path; answering an interrupt also needs runs:decide (checked inside)
  rule("POST", "/agui/:id", "runs:start", "agent"),
  // a public chat's visitors: the chat's gate checks the chat, the page's origin, the key and the visitor
  rule("GET", "/public/:publicId/config", "publishable-key", "inside"),
  rule("POST", "/public/:publicId/sessions", "publishable-key", "inside"),
  rule("GET", "/public/:publicId/sessions/:id", "visitor", "inside"),
  rule("POST", "/public/:publicId/sessions/:id/turns", "visitor", "inside"),
  rule("GET", "/public/:publicId/sessions/:id/stream", "visitor", "inside"),
  rule("POST", "/public/:publicId/sessions/:id/feedback", "visitor", "inside"),
  // a public chat's hosted page and the embed script: pages with no data of their own (issue 33)
  rule("GET", "/chat/:publicId", "public"),
  rule("GET", "/embed.js", "public"),
  // a webhook trigger's deliveries: no key or token; the trigger's own secret (signature or bearer) inside
  rule("POST", "/hooks/:triggerId", "public", "inside"),
  // the designer's page: holds no data, and shows the sign-in screen itself
  rule("GET", "*", "public"),
];

/** The socket.io events: each a read, scoped by the agent of the run, agent or session it names. */
export const SOCKET_RULES: Readonly<
  Record<string, { access: Permission; scope: "run" | "agent" | "session" | "none" }>
> = {
  subscribe: { access: "runs:read", scope: "run" },
  unsubscribe: { access: "runs:read", scope: "none" },
  watch_agent: { access: "agents:read", scope: "agent" },
  unwatch_agent: { access: "agents:read", scope: "none" },
  subscribe_session: { access: "sessions:read", scope: "session" },
  unsubscribe_session: { access: "sessions:read", scope: "none" },
  // the inbox's events go only to the sockets whose key may see the item's agent (http/inbox-watchers.ts)
  watch_inbox: { access: "runs:read", scope: "none" },
  unwatch_inbox: { access: "runs:read", scope: "none" },
};

export interface MatchedRule {
  rule: RouteRule;
  params: Record<string, string>;
}

interface Compiled {
  rule: RouteRule;
  segments: string[];
}

const compiled: Compiled[] = ROUTE_RULES.map((entry) => ({
  rule: entry,
  segments: entry.path === "*" ? ["*"] : entry.path.split("/").slice(1),
}));

/** The rule of a request (first match, in table order; specific patterns before `:param` ones). */
export function matchRoute(method: string, path: string): MatchedRule | undefined {
  const parts = path.split("/").slice(1);
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
  const verb = method === "HEAD" ? "GET" : method;
  let best: { match: MatchedRule; score: number } | undefined;
  for (const { rule: entry, segments } of compiled) {
    if (entry.method !== "ALL" && entry.method !== verb) continue;
    const params: Record<string, string> = {};
    let ok = true;
    let score = 0;
    for (let index = 0; index < segments.length; index++) {
      const segment = segments[index]!;
      if (segment === "*") {
        score -= 1_000;
        break;
      }
      const part = parts[index];
      if (part === undefined || part === "") {
        ok = false;
        break;
      }
      if (segment.startsWith(":")) params[segment.slice(1)] = safeDecode(part);
      else if (segment !== part) {
        ok = false;
        break;
      } else score += 1;
    }
    if (!ok) continue;
    if (segments[segments.length - 1] !== "*" && parts.length !== segments.length) continue;
    if (!best || score > best.score) best = { match: { rule: entry, params }, score };
  }
  return best?.match;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
