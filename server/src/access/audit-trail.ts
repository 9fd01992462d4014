import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { AuditAction, AuditEntry } from "@waddle/protocol";
import type { Logger } from "../shared/logger.js";
import type { AuditStore } from "../store/audit/audit-store.js";
import { actorOf, LOCAL_ACTOR, type Actor } from "./actor.js";
import { currentResponse } from "./request-context.js";

/** What happened, to what; `details` is JSON that must never hold a secret (it is scrubbed anyway). */
export interface AuditInput {
  action: AuditAction;
  target: { type: string; id: string };
  details?: Record<string, unknown>;
}

/** Field names whose values are never written, whatever they hold. */
const SECRET_FIELD =
  /secret|password|passwd|token|api[-_]?key|authorization|cookie|credential_value|^value$|^key$/i;
/** Past this, `details` is replaced by a note saying how large it was. */
const MAX_DETAILS_CHARS = 8_000;
/** Failed sign-ins: at most one entry per address per this long, with the count since the last one. */
export const FAILED_SIGN_IN_WINDOW_MS = 60_000;
const MAX_TRACKED_ADDRESSES = 10_000;

interface FailedSignIns {
  /** When this address's last entry was written. */
  loggedAt: number;
  /** Failures since then, not yet in the log. */
  pending: number;
  timer?: NodeJS.Timeout;
}

/**
 * Writes the audit log (`server/docs/audit.md`): who (`actorOf`), when, what, on what, from which address.
 * A write that fails is logged and does not fail the request it records (the action already happened).
 * Failed sign-ins are rate-limited in the log itself: one entry per address per minute, with a count.
 */
export class AuditTrail {
  private readonly failed = new Map<string, FailedSignIns>();

  constructor(
    private readonly options: {
      store: AuditStore;
      logger: Logger;
      /** Replaces known secret values (stored credentials, `WADDLE_SECRET_*`) in what is written. */
      redactor?: { redactText(text: string): string };
      now?: () => number;
    },
  ) {}

  /** Records an action of `actor`; `ip` is the request's address when there is one. */
  async record(actor: Actor, input: AuditInput, ip?: string): Promise<AuditEntry | undefined> {
    const entry: AuditEntry = {
      id: `aud_${randomUUID()}`,
      at: new Date(this.now()).toISOString(),
      actor: actor.name,
      actorKeyId: actor.keyId,
      action: input.action,
      target: { type: input.target.type.slice(0, 100), id: input.target.id.slice(0, 300) },
      details: this.scrub(input.details ?? {}),
      ...(ip ? { ip } : {}),
    };
    try {
      await this.options.store.append(entry);
      return entry;
    } catch (error) {
      this.options.logger.error("the audit log could not be written", {
        action: input.action,
        error: String(error),
      });
      return undefined;
    }
  }

  /** Records an action of whoever made the request `response` answers. */
  recordFor(response: Response, input: AuditInput): Promise<AuditEntry | undefined> {
    return this.record(actorOf(response), input, response.req?.ip);
  }

  /** Records an action of the request being served (`bindRequestContext`); the local actor outside one. */
  recordCurrent(input: AuditInput): Promise<AuditEntry | undefined> {
    const response = currentResponse();
    return response ? this.recordFor(response, input) : this.record(LOCAL_ACTOR, input);
  }

  /**
   * A failed sign-in (a bad, revoked or expired key) from `ip`: the first of a minute is written at once
   * (`details.count` 1); later ones of that minute are counted and written together when it ends.
   */
  noteFailedSignIn(ip: string): void {
    const now = this.now();
    const known = this.failed.get(ip);
    if (!known || now - known.loggedAt >= FAILED_SIGN_IN_WINDOW_MS) {
      if (known?.timer) clearTimeout(known.timer);
      const count = 1 + (known?.pending ?? 0);
      this.track(ip, { loggedAt: now, pending: 0 });
      void this.writeFailed(ip, count);
      return;
    }
    known.pending += 1;
    known.timer ??= setTimeout(
      () => void this.flushFailed(ip),
      Math.max(0, known.loggedAt + FAILED_SIGN_IN_WINDOW_MS - now),
    ).unref();
  }

  /** Writes every counted failed sign-in not yet in the log (at shutdown, and in tests). */
  async flush(): Promise<void> {
    await Promise.all([...this.failed.keys()].map((ip) => this.flushFailed(ip)));
  }

  private async flushFailed(ip: string): Promise<void> {
    const known = this.failed.get(ip);
    if (!known) return;
    if (known.timer) clearTimeout(known.timer);
    delete known.timer;
    if (known.pending === 0) return;
    const count = known.pending;
    known.pending = 0;
    known.loggedAt = this.now();
    await this.writeFailed(ip, count);
  }

  private async writeFailed(ip: string, count: number): Promise<void> {
    await this.record(
      { ...LOCAL_ACTOR, kind: "local", name: "anonymous", role: "viewer", canDecide: false, agents: [] },
      { action: "auth.failed", target: { type: "address", id: ip }, details: { count } },
      ip,
    );
  }

  private track(ip: string, state: FailedSignIns): void {
    this.failed.delete(ip);
    if (this.failed.size >= MAX_TRACKED_ADDRESSES) {
      const oldest = this.failed.keys().next().value;
      if (oldest !== undefined) {
        clearTimeout(this.failed.get(oldest)?.timer);
        this.failed.delete(oldest);
      }
    }
    this.failed.set(ip, state);
  }

  /** JSON only, secret-named fields dropped, known secret values replaced, bounded in size. */
  private scrub(details: Record<string, unknown>): Record<string, unknown> {
    let text = JSON.stringify(details, (key, value: unknown) =>
      key !== "" && SECRET_FIELD.test(key) ? "[redacted]" : value,
    );
    if (this.options.redactor) text = this.options.redactor.redactText(text);
    if (text.length > MAX_DETAILS_CHARS) return { truncated: true, chars: text.length };
    return JSON.parse(text) as Record<string, unknown>;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}

/** Makes the trail reachable from every route (`audit(response, …)`). */
export function provideAuditTrail(trail: AuditTrail) {
  return (_request: Request, response: Response, next: NextFunction): void => {
    response.locals["audit"] = trail;
    next();
  };
}

/** The trail of the app serving `response`; undefined for a router mounted without `createApp`. */
export function auditTrailOf(response: Response): AuditTrail | undefined {
  return response.locals["audit"] as AuditTrail | undefined;
}

/**
 * Records who (`actorOf(response)`) did `input.action`. Routes call it after the action succeeded. For the
 * key routes: `audit(response, {action: "key.created", target: {type: "key", id}, details: {name, role}})`.
 */
export async function audit(response: Response, input: AuditInput): Promise<void> {
  await auditTrailOf(response)?.recordFor(response, input);
}

/** The top-level args an edit changed, with their values before and after (for `run.decision`). */
export function getArgsDiff(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
): { field: string; before?: unknown; after?: unknown }[] {
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: { field: string; before?: unknown; after?: unknown }[] = [];
  for (const field of fields) {
    const was = before?.[field];
    const now = after?.[field];
    if (JSON.stringify(was) === JSON.stringify(now)) continue;
    const hidden = SECRET_FIELD.test(field);
    changes.push({
      field,
      ...(was === undefined ? {} : { before: hidden ? "[redacted]" : was }),
      ...(now === undefined ? {} : { after: hidden ? "[redacted]" : now }),
    });
  }
  return changes;
}
