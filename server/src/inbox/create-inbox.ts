import type { AuditTrail } from "../access/audit-trail.js";
import type { RunEventHub } from "../runs/run-event-hub.js";
import type { Logger } from "../shared/logger.js";
import type { WaddleStore } from "../store/waddle-store.js";
import type { TimeoutRuns } from "./decide-timeout.js";
import { InboxEvents } from "./inbox-events.js";
import { InboxService } from "./inbox-service.js";
import { InboxSweeper } from "./inbox-sweeper.js";

/** The approvals inbox of one instance: the view, its events (the notifications' hook) and its sweeper. */
export interface Inbox {
  service: InboxService;
  /** `pause.created`, `pause.due_soon`, `pause.timed_out`, `merge.pending`: see `InboxEvents`. */
  events: InboxEvents;
  sweeper: InboxSweeper;
  /** Decides what came due while no server ran, then keeps deciding and announcing. */
  start(): Promise<void>;
  close(): void;
}

/** Where the inbox hears of session changes (the session service's `onChange`): a merge held or decided. */
export interface SessionChanges {
  onChange(listener: (change: { sessionId: string }) => void): () => void;
}

/**
 * Builds the inbox over the store and the run service. `hub`: every instance's run changes (in queue
 * mode the cluster's); `sessions`: this instance's session changes (merges held or decided here).
 */
export function createInbox(options: {
  store: WaddleStore;
  runs: TimeoutRuns;
  hub: RunEventHub;
  sessions: SessionChanges;
  audit: AuditTrail;
  logger: Logger;
  now?: () => number;
  pollMs?: number;
}): Inbox {
  const { store, logger } = options;
  const service = new InboxService({ store, ...(options.now ? { now: options.now } : {}) });
  const events = new InboxEvents(logger);
  const sweeper = new InboxSweeper({
    store,
    inbox: service,
    runs: options.runs,
    events,
    audit: options.audit,
    logger,
    hub: options.hub,
    ...(options.now ? { now: options.now } : {}),
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
  });
  const stopSessions = options.sessions.onChange((change) =>
    service.noteChange({ sessionId: change.sessionId }),
  );
  return {
    service,
    events,
    sweeper,
    start: () => sweeper.start(),
    close: () => {
      stopSessions();
      sweeper.stop();
    },
  };
}
