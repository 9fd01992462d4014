import type { InboxItem, InboxQuery, InboxResponse, ResumeRequest } from "@waddle/protocol";
import { ApiError } from "../api/api-error.js";
import type { InboxStoreOptions } from "../inbox/inbox-store.js";
import { makeSpec } from "./make-spec.js";
import { makeRunRecord } from "./fake-run-api.js";
import { FakeSocketServer } from "./fake-socket-server.js";

/** An inbox item of the `mailer` agent (a pause at send_email), with what the test changes. */
export function makeInboxItem(overrides: Partial<InboxItem> = {}): InboxItem {
  return {
    itemId: "pause:run_1",
    kind: "pause",
    agentId: "mailer",
    agentVersion: 1,
    runId: "run_1",
    reason: "approval_required",
    tool: "alpha",
    argsPreview: '{"to":"dana@example.com"}',
    startedBy: "alice",
    createdAt: "2026-01-05T09:00:00Z",
    resumeToken: "tok_1",
    ...overrides,
  };
}

/** The fake socket server, also answering `watch_inbox` with the inbox's open count (or refusing it). */
export class InboxSocketServer extends FakeSocketServer {
  openCount = 0;
  refuseInbox: { code: string; message: string } | null = null;
  override handle(name: string, payload: unknown, ack: ((answer: unknown) => void) | undefined): void {
    if (name !== "watch_inbox") return super.handle(name, payload, ack);
    this.received.push({ name, payload });
    ack?.(
      this.refuseInbox ? { ok: false, error: this.refuseInbox } : { ok: true, openCount: this.openCount },
    );
  }
}

/**
 * The inbox routes (and the resume, merge and version routes a decision uses) in memory: items it holds,
 * listed as the server filters them, each call recorded. A decided item leaves; deciding it again is 409.
 */
type InboxStoreApi = InboxStoreOptions["api"];

export class FakeInboxApi implements InboxStoreApi {
  readonly calls: string[] = [];
  readonly items = new Map<string, InboxItem>();
  readonly decided = new Set<string>();

  add(...items: InboxItem[]): void {
    for (const item of items) this.items.set(item.itemId, item);
  }

  async listInbox(query: InboxQuery = {}): Promise<InboxResponse> {
    this.calls.push(`list ${new URLSearchParams(query as Record<string, string>).toString()}`);
    await Promise.resolve();
    const all = [...this.items.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const isOpen = (item: InboxItem) => !item.snoozedUntil;
    const items = all.filter(
      (item) =>
        (!query.agentId || item.agentId === query.agentId) &&
        (!query.kind || item.kind === query.kind) &&
        (!query.assignee ||
          (query.assignee === "none" ? !item.assignee : item.assignee === query.assignee)) &&
        (query.state === "all" || (query.state === "snoozed" ? !isOpen(item) : isOpen(item))),
    );
    return {
      items: items.slice(0, query.limit ?? 50),
      nextCursor: null,
      openCount: all.filter(isOpen).length,
    };
  }

  async assignInboxItem(itemId: string, assignee: string | null): Promise<InboxItem> {
    this.calls.push(`assign ${itemId} ${assignee}`);
    return this.change(itemId, { assignee });
  }

  async snoozeInboxItem(itemId: string, until: string | null): Promise<InboxItem> {
    this.calls.push(`snooze ${itemId} ${until}`);
    return this.change(itemId, { snoozedUntil: until });
  }

  async resumeRun(runId: string, body: ResumeRequest): Promise<{ runId: string }> {
    this.calls.push(`resume ${runId} ${body.decision}${body.userInput ? ` "${body.userInput}"` : ""}`);
    const itemId = `pause:${runId}`;
    if (this.decided.has(itemId))
      throw new ApiError("conflict", "answered", 409, { reason: "already_answered", status: "running" });
    this.decided.add(itemId);
    this.items.delete(itemId);
    return { runId };
  }

  async decideMerge(sessionId: string, mergeId: string, body: { decision: string; note?: string }) {
    this.calls.push(`merge ${sessionId} ${mergeId} ${body.decision}${body.note ? ` "${body.note}"` : ""}`);
    const itemId = `merge:${sessionId}:${mergeId}`;
    if (this.decided.has(itemId)) throw new ApiError("already_answered", "decided", 409);
    this.decided.add(itemId);
    this.items.delete(itemId);
    return { sessionId, mergeId, decision: body.decision, status: "idle" as const };
  }

  /** A pause's payload by run id (a stuck run's message, a guard's findings); unset: a tool's args. */
  readonly pausePayloads = new Map<string, Record<string, unknown>>();

  async getRun(runId: string) {
    this.calls.push(`run ${runId}`);
    const item = this.items.get(`pause:${runId}`);
    return makeRunRecord({
      id: runId,
      status: item ? "paused" : "running",
      pause: item
        ? {
            reason: item.reason,
            resumeToken: item.resumeToken ?? "tok",
            payload: this.pausePayloads.get(runId) ?? {
              tool: item.tool,
              args: { to: "dana@example.com", body: "The whole text" },
            },
          }
        : null,
    });
  }

  async getVersion(id: string, version: number) {
    this.calls.push(`version ${id}@${version}`);
    return { id, version, spec: makeSpec({ id }), updatedAt: "2026-01-05T09:00:00Z" };
  }

  private change(itemId: string, patch: Partial<InboxItem>): InboxItem {
    const item = this.items.get(itemId);
    if (!item) throw new ApiError("not_found", `No inbox item "${itemId}".`, 404);
    const next = { ...item, ...patch };
    this.items.set(itemId, next);
    return next;
  }
}
