/** A session of a public chat and the anonymous visitor it belongs to (issue 33). */
export interface VisitorSession {
  sessionId: string;
  publicId: string;
  agentId: string;
  visitorId: string;
  createdAt: string;
}

/** Which visitor owns which session: a visitor reads and continues only their own. */
export interface VisitorSessionStore {
  /** Records a new session's owner; `conflict` when the session already has one. */
  add(session: VisitorSession): Promise<void>;
  get(sessionId: string): Promise<VisitorSession | undefined>;
  /** The visitor's sessions on one chat, newest first. */
  list(options: { publicId: string; visitorId: string; limit?: number }): Promise<VisitorSession[]>;
}
