import { createHash } from "node:crypto";
import type { SessionRecord } from "@waddle/protocol";
import type { Actor } from "../../access/actor.js";
import { inScope } from "../../access/permissions.js";
import { SessionId } from "../../http/sessions-routes.js";
import { ApiError } from "../../shared/api-error.js";
import type { WaddleStore } from "../../store/waddle-store.js";

/** The version a new thread's session pins, and the channel it was resolved from. */
export interface ThreadAgent {
  agentId: string;
  agentVersion: number;
  channel?: string | undefined;
}

/**
 * The Waddle session of an AG-UI thread. A key's thread whose id is a session id (`ses_…`) is that
 * session, so a client may continue one started elsewhere; any other thread id maps to `ses_agui_<hash>`,
 * the same on every instance with nothing stored. A publishable key's threads hash inside its public chat
 * (`publicId`): they can never name a session that is not one of its own.
 */
export function getThreadSessionId(threadId: string, publicId?: string): string {
  if (publicId === undefined && SessionId.safeParse(threadId).success) return threadId;
  const scope = publicId === undefined ? "thread" : `public:${publicId}`;
  return `ses_agui_${createHash("sha256").update(`${scope}\n${threadId}`).digest("hex").slice(0, 32)}`;
}

/**
 * The thread's session, made on its first run with the version `agent` resolves to now (later runs keep
 * it, as any session does). A session of an agent outside the key's scope is answered as a thread that
 * does not exist; one of another agent is a 400 naming `threadId`.
 */
export async function openThreadSession(options: {
  store: WaddleStore;
  actor: Actor;
  sessionId: string;
  agent: ThreadAgent;
}): Promise<SessionRecord> {
  const { store, sessionId, agent } = options;
  const existing = await getThreadSession(options);
  if (existing) return existing;
  try {
    return await store.sessions.create({
      id: sessionId,
      agentId: agent.agentId,
      agentVersion: agent.agentVersion,
      ...(agent.channel === undefined ? {} : { channel: agent.channel }),
    });
  } catch (error) {
    // Two first runs of one thread at once: the other made it.
    const made = await getThreadSession(options);
    if (made) return made;
    throw error;
  }
}

/** The thread's session when it has one (checked as `openThreadSession` does), else undefined. */
export async function getThreadSession(options: {
  store: WaddleStore;
  actor: Actor;
  sessionId: string;
  agent: Pick<ThreadAgent, "agentId">;
}): Promise<SessionRecord | undefined> {
  const { store, actor, sessionId, agent } = options;
  const session = await store.sessions.get(sessionId);
  if (!session) return undefined;
  if (!inScope(actor, session.agentId)) {
    throw new ApiError("not_found", `No thread "${sessionId}".`, { param: "threadId" });
  }
  if (session.agentId !== agent.agentId) {
    throw new ApiError(
      "validation_failed",
      `That thread talks to agent "${session.agentId}": continue it at /agui/${session.agentId}, or use a ` +
        "new threadId for this agent.",
      { param: "threadId", sessionId, agentId: session.agentId },
    );
  }
  return session;
}
