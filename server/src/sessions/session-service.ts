import { resolveRunTarget } from "../releases/resolve-run-target.js";
import { randomBytes } from "node:crypto";
import type {
  CreateSessionRequest,
  MergeDecisionRequest,
  SessionEvent,
  SessionRecord,
  SessionSummary,
} from "@waddle/protocol";
import { ApiError, notFound } from "../shared/api-error.js";
import type { SessionChange, SessionChangeResult } from "../store/sessions/session-store.js";
import type { WaddleStore } from "../store/waddle-store.js";

/** Why a session refused a change: the `details.reason` of its 409, as a resume conflict names its own. */
export type SessionConflictReason = "turn_in_progress" | "session_closed" | "already_answered" | "task_ended";

/** A session's log grew (here, or on another instance in queue mode): read it after what you have. */
export interface SessionChangeNotice {
  sessionId: string;
  agentId: string;
  lastSeq: number;
  /** What this change appended (the instance that made it hears it; notifications read merges from it). */
  events?: readonly SessionEvent[];
}

/** Hears every change to a session's log: the socket gateway and the agent watchers publish them. */
export type SessionListener = (change: SessionChangeNotice) => void;

export function createSessionId(): string {
  return `ses_${randomBytes(8).toString("hex")}`;
}

/** A 409 naming its reason, with the session as it is now. */
export function sessionConflict(
  reason: SessionConflictReason,
  record: SessionRecord,
  message: string,
): ApiError {
  return new ApiError("invalid_state", message, { reason, status: record.status, session: record });
}

/**
 * Sessions as the API serves them: created on a saved agent version, listed, read, closed, their logs read
 * and their merges decided. Every decision is one conditional write of the store (`sessions.update`), so
 * that two instances answering one merge give one 202 and one 409.
 */
export class SessionService {
  private readonly listeners = new Set<SessionListener>();

  constructor(private readonly store: WaddleStore) {}

  /** Pins the agent's version (the latest unless named); the title comes from the first query unless given. */
  async create(request: CreateSessionRequest): Promise<SessionRecord> {
    // A channel (production by default, once released) pins what it serves now; later releases move new sessions only.
    const target = await resolveRunTarget(this.store, request.agentId, {
      channel: request.channel,
      version: request.agentVersion,
    });
    const agent =
      target.version === undefined
        ? await this.store.getAgent(request.agentId)
        : await this.store.getAgentVersion(request.agentId, target.version);
    if (!agent) {
      throw target.version === undefined
        ? notFound("Agent", request.agentId)
        : new ApiError("not_found", `Agent "${request.agentId}" has no version ${target.version}.`);
    }
    return this.store.sessions.create({
      id: createSessionId(),
      agentId: agent.id,
      agentVersion: agent.version,
      ...(target.channel === undefined ? {} : { channel: target.channel }),
      ...(request.title === undefined ? {} : { title: request.title }),
    });
  }

  async get(id: string): Promise<SessionRecord> {
    const record = await this.store.sessions.get(id);
    if (!record) throw notFound("Session", id);
    return record;
  }

  list(options: { agentId?: string; limit?: number }): Promise<SessionSummary[]> {
    return this.store.sessions.list(options);
  }

  async listEvents(id: string, options: { afterSeq?: number; limit?: number }): Promise<SessionEvent[]> {
    await this.get(id);
    return this.store.sessions.listEvents(id, options);
  }

  /** Closes a session (once; closing a closed one changes nothing). Its runs are kept. */
  async close(id: string): Promise<SessionRecord> {
    const change = await this.update(id, (record) =>
      record.status === "closed"
        ? { events: [], result: undefined }
        : { events: [{ type: "session_closed", data: { reason: "closed by a person" } }], result: undefined },
    );
    return change.record;
  }

  /**
   * Answers a pending merge once: approve merges the held results into what the next turn sees, reject
   * discards them. 404 for a merge the session never had, 409 `already_answered` for one decided before.
   */
  async decideMerge(
    id: string,
    mergeId: string,
    decision: MergeDecisionRequest & { actor?: string },
  ): Promise<SessionRecord> {
    const known = await this.store.sessions.listEvents(id);
    if (!known.some((event) => event.type === "merge_pending" && event.data.mergeId === mergeId)) {
      await this.get(id);
      throw new ApiError("not_found", `Session "${id}" has no merge "${mergeId}".`, { id: mergeId });
    }
    const change = await this.update(id, (record) =>
      record.pendingMerges.some((merge) => merge.mergeId === mergeId)
        ? {
            events: [
              {
                type: "merge_decided",
                data: {
                  mergeId,
                  decision: decision.decision,
                  ...(decision.note === undefined ? {} : { note: decision.note }),
                  ...(decision.actor === undefined ? {} : { actor: decision.actor }),
                },
              },
            ],
            result: true,
          }
        : { events: [], result: false },
    );
    if (!change.result) {
      throw sessionConflict(
        "already_answered",
        change.record,
        `Merge "${mergeId}" of session "${id}" was already answered: reload the session to see its results.`,
      );
    }
    return change.record;
  }

  /** One conditional write on a session, published to the listeners when it appended anything. */
  async update<R>(id: string, change: SessionChange<R>): Promise<SessionChangeResult<R>> {
    const result = await this.store.sessions.update(id, change);
    if (!result) throw notFound("Session", id);
    if (result.events.length > 0) {
      const notice = {
        sessionId: id,
        agentId: result.record.agentId,
        lastSeq: result.record.lastSeq,
        events: result.events,
      };
      this.publish(notice);
    }
    return result;
  }

  /** Listens to every change this instance makes; returns how to stop. */
  onChange(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private publish(notice: SessionChangeNotice): void {
    for (const listener of this.listeners) listener(notice);
  }
}
