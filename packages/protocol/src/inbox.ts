import { z } from "zod";
import { Slug } from "./names.js";

/**
 * The approvals inbox (issue 34): everything that waits for a person, across agents — the pauses of runs,
 * session turns, public chats and tasks, and the merges held for a person (HUMAN_GATED). Deciding uses the
 * routes that exist (resume, merge decisions), so one winner, `already_answered` and the audit log hold.
 */

export const InboxItemKind = z.enum(["pause", "merge"]);
export type InboxItemKind = z.infer<typeof InboxItemKind>;

/** `open`: nobody decided yet and not snoozed; `snoozed`: hidden until `snoozedUntil`; `all`: both. */
export const InboxState = z.enum(["open", "snoozed", "all"]);
export type InboxState = z.infer<typeof InboxState>;

/** What a pause past its time does (`approval.onTimeout`). */
export const ApprovalTimeoutAction = z.enum(["reject", "approve", "fail"]);
export type ApprovalTimeoutAction = z.infer<typeof ApprovalTimeoutAction>;

/** A tool's or an agent's limit on waiting for a person: `{timeoutS, onTimeout}`. */
export const ApprovalPolicy = z.strictObject({
  timeoutS: z
    .int()
    .min(1)
    .max(30 * 24 * 3_600),
  onTimeout: ApprovalTimeoutAction,
});
export type ApprovalPolicy = z.infer<typeof ApprovalPolicy>;

/** The `actor` a decision made by the server at a pause's due time carries, in events and the audit log. */
export const TIMEOUT_ACTOR = "timeout";

export const InboxItem = z.object({
  /** Stable: `pause:<runId>` or `merge:<sessionId>:<mergeId>`. */
  itemId: z.string(),
  kind: InboxItemKind,
  agentId: z.string(),
  agentVersion: z.int().positive(),
  channel: z.string().optional(),
  runId: z.string(),
  sessionId: z.string().optional(),
  /** The pause's reason (`approval_required`, `stuck`…) or the merge's name. */
  reason: z.string(),
  tool: z.string().optional(),
  /** The arguments, bounded, for a person to judge. */
  argsPreview: z.string().optional(),
  /** What the pause says, bounded: a guard's or the stuck breaker's sentence (never the text a guard found). */
  message: z.string().optional(),
  /** The key's name, `trigger:<id>`, or `public:<publicId>` for a public chat's visitor. */
  startedBy: z.string(),
  createdAt: z.string(),
  assignee: z.string().nullable().optional(),
  /** When the server decides it (`approval.timeoutS`), and how. */
  dueAt: z.string().nullable().optional(),
  onTimeout: ApprovalTimeoutAction.optional(),
  snoozedUntil: z.string().nullable().optional(),
  /** A pause: the token its resume needs (`POST /api/runs/:id/resume`). A merge: its id. */
  resumeToken: z.string().optional(),
  mergeId: z.string().optional(),
});
export type InboxItem = z.infer<typeof InboxItem>;

/** `GET /api/inbox`. */
export const InboxQuery = z.strictObject({
  agentId: z.string().optional(),
  kind: InboxItemKind.optional(),
  /** A key's name, or `none` for unassigned items. */
  assignee: z.string().optional(),
  state: InboxState.optional(),
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export type InboxQuery = z.infer<typeof InboxQuery>;

export const InboxResponse = z.object({
  items: z.array(InboxItem),
  /** The next page's cursor; null on the last page. */
  nextCursor: z.string().nullable(),
  /** Open items the caller can see, all pages together (the header's badge). */
  openCount: z.int().nonnegative(),
});
export type InboxResponse = z.infer<typeof InboxResponse>;

/** `POST /api/inbox/:itemId/assign`: a key's name, or null to unassign. */
export const AssignInboxItemRequest = z.strictObject({ assignee: z.string().min(1).max(200).nullable() });
export type AssignInboxItemRequest = z.infer<typeof AssignInboxItemRequest>;

/** `POST /api/inbox/:itemId/snooze`: an ISO time in the future, or null to wake it now. */
export const SnoozeInboxItemRequest = z.strictObject({ until: z.iso.datetime({ offset: true }).nullable() });
export type SnoozeInboxItemRequest = z.infer<typeof SnoozeInboxItemRequest>;

/** Socket: the client sends `watch_inbox` (ack `{ok, openCount}`) and then gets these. */
export const WATCH_INBOX = "watch_inbox";
export const UNWATCH_INBOX = "unwatch_inbox";
export const InboxItemAdded = z.object({ item: InboxItem });
export const InboxItemUpdated = z.object({ item: InboxItem });
export const InboxItemRemoved = z.object({
  itemId: z.string(),
  /** How it left: decided by a person, by the server at its due time, or the run ended otherwise. */
  decision: z.enum(["approve", "reject", "edit", "timeout", "gone"]).optional(),
  actor: z.string().optional(),
});
export type InboxItemRemoved = z.infer<typeof InboxItemRemoved>;

/** `POST /api/inbox/:itemId/assign` and `/snooze` answer with the item as it is now. */
export const InboxItemResponse = z.object({ item: InboxItem });
export type InboxItemResponse = z.infer<typeof InboxItemResponse>;

/** `watch_inbox`: every item the key may see, or only one agent's. */
export const WatchInboxMessage = z.strictObject({ agentId: Slug.optional() });
export type WatchInboxMessage = z.infer<typeof WatchInboxMessage>;

/** The acknowledgement of `watch_inbox`: ok with the open items the socket may see, or an error body. */
export const WatchInboxAck = z.union([
  z.object({ ok: z.literal(true), openCount: z.int().nonnegative() }),
  z.object({
    ok: z.literal(false),
    error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
  }),
]);
export type WatchInboxAck = z.infer<typeof WatchInboxAck>;
export type InboxItemAdded = z.infer<typeof InboxItemAdded>;
export type InboxItemUpdated = z.infer<typeof InboxItemUpdated>;
