import { z } from "zod";

/** What the audit log records (`server/docs/audit.md`). */
export const AUDIT_ACTIONS = [
  "agent.created",
  "agent.saved",
  "agent.imported",
  "agent.deleted",
  "release.created",
  "release.rolled_back",
  "release.overridden",
  "public_chat.updated",
  "public_chat.key_rotated",
  "trigger.created",
  "trigger.updated",
  "trigger.deleted",
  "run.started",
  "run.cancelled",
  "run.decision",
  "session.started",
  "session.cancelled",
  "session.merge_decision",
  "inbox.assigned",
  "inbox.snoozed",
  "credential.put",
  "credential.deleted",
  "allowlist.added",
  "allowlist.removed",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "key.created",
  "key.revoked",
  "auth.failed",
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

/**
 * One line of the append-only audit log: who (`actor`, the key's name; `actorKeyId`), when, what, on what.
 * `details` is JSON that never holds a secret (no credential value, key or token).
 */
export const AuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.string(),
  actorKeyId: z.string().nullable(),
  action: AuditAction,
  target: z.object({ type: z.string(), id: z.string() }),
  details: z.record(z.string(), z.unknown()),
  ip: z.string().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AUDIT_LIST_DEFAULT_LIMIT = 100;
export const AUDIT_LIST_MAX_LIMIT = 1_000;

/** `GET /api/audit?since=&actor=&action=&limit=`: newest first; `since` is an ISO time (inclusive). */
export const AuditQuery = z.strictObject({
  since: z.iso.datetime({ offset: true }).optional(),
  actor: z.string().min(1).max(200).optional(),
  action: AuditAction.optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_LIST_MAX_LIMIT).default(AUDIT_LIST_DEFAULT_LIMIT),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditResponse = z.object({ entries: z.array(AuditEntry) });
export type AuditResponse = z.infer<typeof AuditResponse>;
