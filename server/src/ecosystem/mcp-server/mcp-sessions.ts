import type { ServerResponse } from "node:http";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export interface McpSession {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
  /** Calls whose HTTP request is still open, by JSON-RPC id: aborted when it closes early. */
  calls: Map<string, AbortController>;
}

export interface McpSessionsOptions {
  /** A session without a request for this long is closed at the next sweep. */
  idleMs?: number;
  maxSessions?: number;
  clock?: () => number;
}

/**
 * The open MCP sessions (Streamable HTTP keeps one server per client session, so that a
 * `notifications/cancelled` reaches the call it cancels). Bounded: idle sessions close, and a full table
 * refuses new ones while every session in it is busy.
 */
export class McpSessions {
  private readonly sessions = new Map<string, McpSession>();
  private readonly idleMs: number;
  private readonly maxSessions: number;
  private readonly clock: () => number;

  constructor(options: McpSessionsOptions = {}) {
    this.idleMs = options.idleMs ?? 60 * 60_000;
    this.maxSessions = options.maxSessions ?? 1_000;
    this.clock = options.clock ?? Date.now;
  }

  get size(): number {
    return this.sessions.size;
  }

  /** The session, marked as seen now. */
  get(id: string): McpSession | undefined {
    const session = this.sessions.get(id);
    if (session) session.lastSeen = this.clock();
    return session;
  }

  add(id: string, session: Omit<McpSession, "lastSeen" | "calls">): void {
    this.sessions.set(id, { ...session, lastSeen: this.clock(), calls: new Map() });
  }

  delete(id: string): void {
    this.sessions.delete(id);
  }

  /**
   * Closes idle sessions, then the least recently seen ones without a call in flight while the table is
   * full; false when it is still full (every session is busy).
   */
  makeRoom(): boolean {
    const now = this.clock();
    const byAge = [...this.sessions.entries()].sort(([, a], [, b]) => a.lastSeen - b.lastSeen);
    for (const [id, session] of byAge) {
      const idle = session.calls.size === 0;
      if (!idle) continue;
      if (now - session.lastSeen < this.idleMs && this.sessions.size < this.maxSessions) break;
      this.close(id, session);
    }
    return this.sessions.size < this.maxSessions;
  }

  /**
   * Watches the HTTP request that carries these JSON-RPC requests: if it closes before its response is
   * complete (the client went away), their calls' signals abort.
   */
  trackCalls(sessionId: string, requestIds: readonly (string | number)[], response: ServerResponse): void {
    const session = this.sessions.get(sessionId);
    if (!session || requestIds.length === 0) return;
    const keys = requestIds.map(String);
    for (const key of keys) session.calls.set(key, new AbortController());
    response.once("close", () => {
      for (const key of keys) {
        if (!response.writableFinished) session.calls.get(key)?.abort(new Error("the client went away"));
        session.calls.delete(key);
      }
    });
  }

  /** The signal of a tracked call, if its request is still open. */
  getCallSignal(sessionId: string | undefined, requestId: string | number): AbortSignal | undefined {
    if (sessionId === undefined) return undefined;
    return this.sessions.get(sessionId)?.calls.get(String(requestId))?.signal;
  }

  private close(id: string, session: McpSession): void {
    this.sessions.delete(id);
    void session.transport.close().catch(() => undefined);
  }
}
