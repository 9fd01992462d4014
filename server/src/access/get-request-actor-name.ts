import { actorOf, hasActor } from "./actor.js";
import { currentResponse } from "./request-context.js";

/**
 * The name of the key (or `WADDLE_TOKEN`) making the request being served, if any: what a run started by it
 * keeps as `origin.startedBy`. Undefined outside a request and for the local user of a server with no keys.
 */
export function getRequestActorName(): string | undefined {
  const response = currentResponse();
  if (!response || !hasActor(response)) return undefined;
  const actor = actorOf(response);
  return actor.kind === "local" ? undefined : actor.name;
}
