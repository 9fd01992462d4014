/** The four roles of an API key, lowest first: each may do all that the ones before it may (server/docs/access.md). */
export const ROLES = ["viewer", "runner", "editor", "admin"] as const;
export type Role = (typeof ROLES)[number];
