import type { Request, RequestHandler, Response } from "express";
import { ApiError } from "../shared/api-error.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { actorOf, setActor, type Actor } from "./actor.js";
import type { Authenticator } from "./authenticator.js";
import { can, inScope } from "./permissions.js";
import { isPublicChatAccess, matchRoute, type ScopeKind } from "./route-permissions.js";

/** The one answer to every bad, unknown, revoked or expired key, and to none where one is needed. */
export const UNAUTHORIZED_MESSAGE =
  "Sign in: send a valid API key as `Authorization: Bearer <key>` (or the server's WADDLE_TOKEN).";

/** The credential of an `Authorization` header: undefined without one, null when it is malformed. */
export function readBearer(header: string | undefined): string | undefined | null {
  if (header === undefined) return undefined;
  const match = /^Bearer ([\x21-\x7e]{1,512})$/.exec(header.trim());
  return match ? match[1]! : null;
}

/** Stands for a malformed header: never a token or key, so it is refused whenever sign-in is needed. */
const MALFORMED = "\u0000malformed";

export function unauthorized(): ApiError {
  return new ApiError("unauthorized", UNAUTHORIZED_MESSAGE);
}

export function forbidden(permission: string): ApiError {
  return new ApiError(
    "forbidden",
    `This key may not do that: it needs the permission "${permission}" (see docs/guides/access.md#roles).`,
    { permission },
  );
}

const fullPath = (request: Request) => (request.originalUrl.split("?")[0] ?? "/").replace(/\/+$/, "") || "/";

/** The access checks of every HTTP surface: one authenticator, one route table (route-permissions.ts). */
export interface AccessGuards {
  authenticator: Authenticator;
  /** Finds the actor (`setActor`) or answers 401; public routes pass without one. */
  authenticate: RequestHandler;
  /** The route's permission (403 `forbidden`) and, for a key limited to some agents, its scope (404). */
  authorize: RequestHandler;
}

export function createAccessGuards(options: {
  authenticator: Authenticator;
  store: WaddleStore;
}): AccessGuards {
  const { authenticator, store } = options;

  const authenticate: RequestHandler = (request, response, next) => {
    const matched = matchRoute(request.method, fullPath(request));
    const presented = readBearer(request.headers.authorization);
    if (matched?.rule.access === "public" && presented === undefined) return next();
    authenticator.authenticate(presented === null ? MALFORMED : presented).then(
      (actor) => {
        if (!actor) {
          response.setHeader("www-authenticate", 'Bearer realm="waddle"');
          return next(unauthorized());
        }
        setActor(response, actor);
        next();
      },
      (error: unknown) => next(error),
    );
  };

  const authorize: RequestHandler = (request, response, next) => {
    const matched = matchRoute(request.method, fullPath(request));
    if (!matched || matched.rule.access === "public" || matched.rule.access === "signed-in") return next();
    // A public chat's route is its gate's alone (server/src/public): no key or token passes here.
    if (isPublicChatAccess(matched.rule.access)) return next(forbidden(matched.rule.access));
    const actor = actorOf(response);
    if (!can(actor, matched.rule.access)) return next(forbidden(matched.rule.access));
    if (actor.agents === null) return next();
    findAgents(store, matched.rule.scope, matched.params, request.body).then(
      (agents) => {
        if (agents === null) return next();
        const allInScope = agents.every((agentId) => agentId !== undefined && inScope(actor, agentId));
        next(allInScope ? undefined : outOfScope());
      },
      (error: unknown) => next(error),
    );
  };

  return { authenticator, authenticate, authorize };
}

/** What a key limited to some agents gets for anything of another agent: the same as for nothing. */
function outOfScope(): ApiError {
  return new ApiError("not_found", "Not found, or outside the agents this key may use.");
}

/**
 * The agents a request touches, each of which the key must be allowed; null when it touches none (or
 * filters itself). An undefined entry names something that does not exist (a 404 for a scoped key either
 * way).
 */
async function findAgents(
  store: WaddleStore,
  scope: ScopeKind,
  params: Record<string, string>,
  body: unknown,
): Promise<(string | undefined)[] | null> {
  // `support-triage@staging` (a `/v1` model, an A2A path) is the agent `support-triage`: ids have no `@`.
  const id = withoutTarget(params["id"] ?? params["model"] ?? "");
  switch (scope) {
    case "none":
    case "list":
    case "inside":
      return null;
    case "agent":
      return [id];
    case "run":
      return [(await store.getRun(id))?.agentId];
    case "session":
      return [await getSessionAgent(store, id)];
    case "testRun":
      return [(await store.tests.getTestRun(id))?.agentId];
    case "body":
      return getBodyAgents(store, body);
  }
}

/**
 * The agents a JSON body names: its `agentId` (or `model`, or a spec's `id`) and, for a session's turn
 * (`POST /api/runs {sessionId}`), the session's agent — which is all a turn may name.
 */
async function getBodyAgents(store: WaddleStore, body: unknown): Promise<(string | undefined)[]> {
  const value = body as { agentId?: unknown; id?: unknown; model?: unknown; sessionId?: unknown } | undefined;
  const named = value?.agentId ?? value?.model ?? value?.id;
  const agents = named === undefined ? [] : [typeof named === "string" ? withoutTarget(named) : undefined];
  if (value?.sessionId !== undefined) {
    agents.push(
      typeof value.sessionId === "string" ? await getSessionAgent(store, value.sessionId) : undefined,
    );
  }
  return agents.length > 0 ? agents : [undefined];
}

/** An agent name without the channel or version it names (`support-triage@7` → `support-triage`). */
const withoutTarget = (name: string): string => name.split("@", 1)[0]!;

async function getSessionAgent(store: WaddleStore, sessionId: string): Promise<string | undefined> {
  return (await store.sessions.get(sessionId))?.agentId;
}

/** The agents list the actor may see (handlers of `list` routes call it). */
export function filterByScope<T>(response: Response, items: readonly T[], agentOf: (item: T) => string): T[] {
  const actor: Actor = actorOf(response);
  return actor.agents === null ? [...items] : items.filter((item) => inScope(actor, agentOf(item)));
}
