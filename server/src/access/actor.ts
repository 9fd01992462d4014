import type { Role } from "@waddle/protocol";
import type { Response } from "express";

export { ROLES, type Role } from "@waddle/protocol";

/**
 * Who is making a request: a stored API key, the bootstrap `WADDLE_TOKEN`, or the local user of a server with
 * no keys and no token. `agents` limits every permission to those agent ids (`null`: every agent). Never
 * holds the key itself.
 */
export interface Actor {
  readonly kind: "local" | "token" | "key";
  /** The key's name, `WADDLE_TOKEN` for the bootstrap token, `local` without any. Shown as the decider. */
  readonly name: string;
  readonly keyId: string | null;
  readonly role: Role;
  readonly agents: readonly string[] | null;
  /** A `runner` key that may also decide pauses and merges. */
  readonly canDecide: boolean;
  /** The key's own rate limit (`30/min`, `5/s`, `1000/h`); the server's `WADDLE_RATE_LIMIT` when unset. */
  readonly rateLimit?: string;
}

/** The actor of a server with no keys and no token: everything, as before access control. */
export const LOCAL_ACTOR: Actor = Object.freeze({
  kind: "local",
  name: "local",
  keyId: null,
  role: "admin",
  agents: null,
  canDecide: true,
});

/** The actor the auth middleware found for this request; the local actor when none ran. */
export function actorOf(response: Response): Actor {
  return (response.locals["actor"] as Actor | undefined) ?? LOCAL_ACTOR;
}

/** True when the auth middleware found who is asking (a public route asked without credentials: false). */
export function hasActor(response: Response): boolean {
  return response.locals["actor"] !== undefined;
}

export function setActor(response: Response, actor: Actor): void {
  response.locals["actor"] = actor;
}
