import type { Server } from "socket.io";
import type { SessionChangeNotice, SessionService } from "../sessions/session-service.js";

const isNotice = (value: unknown): value is SessionChangeNotice =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as SessionChangeNotice).sessionId === "string" &&
  typeof (value as SessionChangeNotice).agentId === "string" &&
  Number.isInteger((value as SessionChangeNotice).lastSeq);

/**
 * Queue mode: tells the other instances when this one grew a session's log, and hears them, over
 * socket.io's Redis adapter. A notice only says "read after what you have": the log is in the store, so a
 * lost notice delays a follower until the next one, and never skips or repeats an event.
 */
export function bridgeSessionChanges(options: {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the app's socket events are typed elsewhere
  io: Server<any, any, { "waddle:session": (notice: SessionChangeNotice) => void }>;
  sessions: SessionService;
}): () => void {
  const { io, sessions } = options;
  io.on("waddle:session", (notice: unknown) => {
    if (isNotice(notice)) sessions.publish(notice);
  });
  return sessions.onLocalChange((notice) => io.serverSideEmit("waddle:session", notice));
}
