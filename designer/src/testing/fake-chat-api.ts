import {
  applySessionEvents,
  createSessionRecord,
  TERMINAL_RUN_STATUSES,
  type AgentRecord,
  type AgentSpec,
  type CreateSessionRequest,
  type MergeDecisionRequest,
  type NewSessionEvent,
  type ResumeRequest,
  type RunEvent,
  type SessionEvent,
  type SessionRecord,
  type SessionSummary,
  type StartSessionTurnRequest,
  type StartSessionTurnResponse,
} from "@waddle/protocol";
import type { MergeDecisionResponse } from "../api/sessions-api.js";
import { ApiError } from "../api/api-error.js";
import type { ChatStoreOptions } from "../chats/chat-store.js";
import type { FakeSessionTransport } from "../chats/transport/fake-session-transport.js";
import type { FakeRunTransport } from "../runs/transport/fake-run-transport.js";

interface FakeSession {
  head: { id: string; agentId: string; agentVersion: number; createdAt: string };
}

/**
 * The session routes of the REST API in memory, for chat store tests: sessions whose logs live in the
 * FakeSessionTransport given (so that REST and the live stream agree) and are folded with the protocol's
 * `applySessionEvent` as the server folds them; turns' run events in the FakeRunTransport. It refuses a
 * turn while one goes on (409 `turn_in_progress`), on a closed session (`session_closed`) and a merge
 * decided twice (`already_answered`), as the server does. Records every call.
 */
export class FakeChatApi implements Pick<ChatStoreOptions["api"], keyof ChatStoreOptions["api"]> {
  readonly calls: string[] = [];
  /** Every POST /api/sessions body, as sent. */
  readonly sessionRequests: CreateSessionRequest[] = [];
  readonly versions = new Map<string, AgentSpec>();
  /** The next resume throws this (once). */
  nextResumeError: ApiError | null = null;
  private readonly sessions = new Map<string, FakeSession>();
  private nextId = 1;
  private clock = Date.UTC(2026, 0, 5, 9, 0, 0);

  constructor(
    private readonly sessionTransport: FakeSessionTransport,
    private readonly runTransport: FakeRunTransport,
  ) {}

  /** A session that exists already, with its log so far. */
  addSession(head: FakeSession["head"], events: readonly SessionEvent[] = []): void {
    this.sessions.set(head.id, { head });
    this.sessionTransport.pushEvents(events);
  }

  /** Appends to a session's log (the store assigns seq and ts) and delivers it live. */
  append(sessionId: string, ...events: NewSessionEvent[]): SessionEvent[] {
    const written = events.map((event) => {
      const seq = this.sessionTransport.getEvents(sessionId).length + 1;
      this.clock += 1_000;
      const full = { ...event, sessionId, seq, ts: event.ts ?? this.clock } as SessionEvent;
      this.sessionTransport.pushEvents([full]);
      return full;
    });
    return written;
  }

  /** Publishes a turn's (or task's) run events, as the run's socket room would. */
  pushRunEvents(events: readonly RunEvent[]): void {
    this.runTransport.pushEvents(events);
  }

  addVersion(spec: AgentSpec, version = 1): void {
    this.versions.set(`${spec.id}@${version}`, spec);
  }

  record(sessionId: string): SessionRecord {
    const session = this.sessions.get(sessionId);
    if (session === undefined) throw new ApiError("not_found", `Session "${sessionId}" does not exist.`, 404);
    return applySessionEvents(createSessionRecord(session.head), this.sessionTransport.getEvents(sessionId));
  }

  async createSession(body: CreateSessionRequest): Promise<{ sessionId: string }> {
    this.calls.push(`createSession ${body.agentId}`);
    this.sessionRequests.push(body);
    const id = `ses_fake${this.nextId++}`;
    this.sessions.set(id, {
      head: {
        id,
        agentId: body.agentId,
        agentVersion: body.agentVersion ?? 1,
        createdAt: new Date(this.clock).toISOString(),
      },
    });
    return { sessionId: id };
  }

  async listSessions(options: { agentId?: string; limit?: number } = {}): Promise<SessionSummary[]> {
    this.calls.push(`listSessions ${options.agentId ?? ""}`);
    return [...this.sessions.keys()]
      .map((id) => this.record(id))
      .filter((record) => options.agentId === undefined || record.agentId === options.agentId)
      .map((record) => ({
        id: record.id,
        agentId: record.agentId,
        agentVersion: record.agentVersion,
        title: record.title,
        status: record.status,
        usage: record.usage,
        createdAt: record.createdAt,
        updatedAt: record.updatedAt,
        turnCount: record.turns.length,
        lastQuery: record.turns.at(-1)?.query ?? null,
      }))
      .sort((left, right) => (left.updatedAt < right.updatedAt ? 1 : -1));
  }

  async getSession(id: string): Promise<SessionRecord> {
    this.calls.push(`getSession ${id}`);
    return this.record(id);
  }

  async closeSession(id: string): Promise<SessionRecord> {
    this.calls.push(`closeSession ${id}`);
    if (this.record(id).status !== "closed") this.append(id, { type: "session_closed", data: {} });
    return this.record(id);
  }

  async startTurn(sessionId: string, body: StartSessionTurnRequest): Promise<StartSessionTurnResponse> {
    this.calls.push(`startTurn ${sessionId} ${body.query}`);
    const record = this.record(sessionId);
    if (record.status === "closed")
      throw new ApiError("invalid_state", "The session is closed.", 409, { reason: "session_closed" });
    const last = record.turns.at(-1);
    if (last && !TERMINAL_RUN_STATUSES.has(last.status))
      throw new ApiError("invalid_state", `Turn ${last.turn} is still running.`, 409, {
        reason: "turn_in_progress",
      });
    const turn = record.turns.length + 1;
    const runId = `run_${sessionId}_${turn}`;
    this.append(sessionId, { type: "turn_started", data: { runId, turn, query: body.query } });
    return { runId, sessionId, turn };
  }

  async decideMerge(
    sessionId: string,
    mergeId: string,
    body: MergeDecisionRequest,
  ): Promise<MergeDecisionResponse> {
    this.calls.push(`decideMerge ${sessionId} ${mergeId} ${body.decision} ${body.note ?? ""}`);
    const record = this.record(sessionId);
    const answered = this.sessionTransport
      .getEvents(sessionId)
      .some((event) => event.type === "merge_decided" && event.data.mergeId === mergeId);
    if (answered)
      throw new ApiError("invalid_state", "This merge was already decided.", 409, {
        reason: "already_answered",
      });
    if (!record.pendingMerges.some((merge) => merge.mergeId === mergeId))
      throw new ApiError("not_found", `Merge "${mergeId}" does not exist.`, 404);
    this.append(sessionId, {
      type: "merge_decided",
      data: { mergeId, decision: body.decision, ...(body.note ? { note: body.note } : {}) },
    });
    return { sessionId, mergeId, decision: body.decision, status: this.record(sessionId).status };
  }

  async resumeRun(id: string, body: ResumeRequest): Promise<{ runId: string }> {
    this.calls.push(`resumeRun ${id} ${body.resumeToken} ${body.decision} ${body.userInput ?? ""}`);
    const error = this.nextResumeError;
    this.nextResumeError = null;
    if (error !== null) throw error;
    return { runId: id };
  }

  async getRunEvents(id: string, after = 0): Promise<RunEvent[]> {
    this.calls.push(`getRunEvents ${id} ${after}`);
    return this.runTransport.getEvents(id, after);
  }

  async getVersion(id: string, version: number): Promise<AgentRecord> {
    this.calls.push(`getVersion ${id} ${version}`);
    const spec = this.versions.get(`${id}@${version}`);
    if (spec === undefined) throw new ApiError("not_found", `Agent "${id}" has no version ${version}.`, 404);
    return { id, version, spec, updatedAt: "2025-01-01T00:00:00Z" };
  }
}
