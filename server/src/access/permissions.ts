import type { Actor, Role } from "./actor.js";

/** What a request may do; a route or socket event needs one of these (route-permissions.ts). */
export const PERMISSIONS = [
  "agents:read",
  "runs:read",
  "sessions:read",
  "tests:read",
  "tools:read",
  "metrics:read",
  "runs:start",
  "agents:write",
  "runs:cancel",
  "runs:decide",
  "tests:write",
  "tools:test",
  "keys:manage",
  "credentials:manage",
  "audit:read",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** What each role adds to the one below it. */
const ADDED: Record<Role, readonly Permission[]> = {
  viewer: ["agents:read", "runs:read", "sessions:read", "tests:read", "tools:read", "metrics:read"],
  runner: ["runs:start"],
  editor: ["agents:write", "runs:cancel", "runs:decide", "tests:write", "tools:test"],
  admin: ["keys:manage", "credentials:manage", "audit:read"],
};

/** Each role's permissions: its own and those of every role below it. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  viewer: new Set(ADDED.viewer),
  runner: new Set([...ADDED.viewer, ...ADDED.runner]),
  editor: new Set([...ADDED.viewer, ...ADDED.runner, ...ADDED.editor]),
  admin: new Set([...ADDED.viewer, ...ADDED.runner, ...ADDED.editor, ...ADDED.admin]),
};

/** True when the actor's role (or, for `runs:decide`, a runner's `canDecide`) grants the permission. */
export function can(actor: Actor, permission: Permission): boolean {
  if (ROLE_PERMISSIONS[actor.role].has(permission)) return true;
  return permission === "runs:decide" && actor.role === "runner" && actor.canDecide;
}

/** True when the actor may see the agent at all (its key's `agents` list, or every agent). */
export function inScope(actor: Actor, agentId: string): boolean {
  return actor.agents === null || actor.agents.includes(agentId);
}
