import { z } from "zod";
import { SessionStatus, SessionSummary } from "./session.js";
import type { SessionEvent } from "./session-event.js";
import { ErrorBody, RunRecord, RunStatus } from "./api.js";
import { Slug } from "./names.js";
import type { TestRunRecord } from "./agent-tests.js";
import { RunEvent } from "./run-event.js";
import type {
  InboxItemAdded,
  InboxItemRemoved,
  InboxItemUpdated,
  WatchInboxAck,
  WatchInboxMessage,
} from "./inbox.js";

/**
 * client → server: join a run's room with the last `seq` the client holds. With `batch: true` the run's
 * events come as `run_events` (one message per server tick) instead of one `event` message each.
 */
export const SubscribeMessage = z.strictObject({
  runId: z.string().min(1).max(200),
  afterSeq: z.int().nonnegative().default(0),
  batch: z.boolean().optional(),
});
export type SubscribeMessage = z.infer<typeof SubscribeMessage>;

export const UnsubscribeMessage = z.strictObject({ runId: z.string().min(1).max(200) });
export type UnsubscribeMessage = z.infer<typeof UnsubscribeMessage>;

/**
 * server → client, to a socket that subscribed with `batch: true`: the events of one run that one server
 * tick produced (or one page of the replay), in `seq` order, never empty.
 */
export const RunEventsMessage = z
  .array(RunEvent)
  .min(1)
  .superRefine((events, context) => {
    events.forEach((event, index) => {
      const previous = events[index - 1];
      if (previous === undefined) return;
      if (event.runId !== previous.runId)
        context.addIssue({ code: "custom", path: [index, "runId"], message: "one run per batch" });
      else if (event.seq <= previous.seq)
        context.addIssue({ code: "custom", path: [index, "seq"], message: "seq must increase" });
    });
  });
export type RunEventsMessage = z.infer<typeof RunEventsMessage>;

/** server → client: the run's status whenever it changes (and once on subscribe). */
export const RunStatusMessage = z.object({
  runId: z.string(),
  status: RunStatus,
  lastSeq: z.int().nonnegative(),
});
export type RunStatusMessage = z.infer<typeof RunStatusMessage>;

/** The acknowledgement of `subscribe`: ok with the run's status, or an error body. */
export const SubscribeAck = z.union([
  z.object({ ok: z.literal(true), status: RunStatus, lastSeq: z.int().nonnegative() }),
  z.object({ ok: z.literal(false), error: ErrorBody }),
]);
export type SubscribeAck = z.infer<typeof SubscribeAck>;

/**
 * client → server: receive `run_updated` for every run of the agent from now on, wherever it was started
 * (REST, the CLI with --server, another page). List the runs over REST after the ack: nothing is replayed.
 */
export const WatchAgentMessage = z.strictObject({ agentId: Slug });
export type WatchAgentMessage = z.infer<typeof WatchAgentMessage>;

export const UnwatchAgentMessage = z.strictObject({ agentId: Slug });
export type UnwatchAgentMessage = z.infer<typeof UnwatchAgentMessage>;

/** The acknowledgement of `watch_agent`. */
export const WatchAgentAck = z.union([
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), error: ErrorBody }),
]);
export type WatchAgentAck = z.infer<typeof WatchAgentAck>;

/**
 * server → client, to sockets watching the run's agent: the whole run, as `GET /api/runs/:id` answers it,
 * when it is created and whenever its status (or its outcome: result, error) changes.
 */
export const RunUpdatedMessage = RunRecord;
export type RunUpdatedMessage = z.infer<typeof RunUpdatedMessage>;

/** client → server: replay a session's log after `afterSeq`, then follow it live as `session_event`. */
export const SubscribeSessionMessage = z.strictObject({
  sessionId: z.string().regex(/^ses_[A-Za-z0-9_-]{1,80}$/),
  afterSeq: z.int().nonnegative().default(0),
});
export type SubscribeSessionMessage = z.infer<typeof SubscribeSessionMessage>;
export const UnsubscribeSessionMessage = z.strictObject({ sessionId: z.string().min(1).max(200) });
export type UnsubscribeSessionMessage = z.infer<typeof UnsubscribeSessionMessage>;

/** The acknowledgement of `subscribe_session`, once the replay is sent. */
export const SubscribeSessionAck = z.union([
  z.object({ ok: z.literal(true), status: SessionStatus, lastSeq: z.int().nonnegative() }),
  z.object({ ok: z.literal(false), error: ErrorBody }),
]);
export type SubscribeSessionAck = z.infer<typeof SubscribeSessionAck>;

/** server → client, to sockets watching the session's agent: the session as a list shows it. */
export const SessionUpdatedMessage = SessionSummary;
export type SessionUpdatedMessage = z.infer<typeof SessionUpdatedMessage>;

/** Typed socket.io event maps, shared by the server and every client. */
export interface ClientToServerEvents {
  subscribe: (message: SubscribeMessage, ack?: (answer: SubscribeAck) => void) => void;
  unsubscribe: (message: UnsubscribeMessage) => void;
  watch_agent: (message: WatchAgentMessage, ack?: (answer: WatchAgentAck) => void) => void;
  unwatch_agent: (message: UnwatchAgentMessage) => void;
  subscribe_session: (message: SubscribeSessionMessage, ack?: (answer: SubscribeSessionAck) => void) => void;
  unsubscribe_session: (message: UnsubscribeSessionMessage) => void;
  /** The approvals inbox (issue 34): `inbox_item_*` from then on, for the items the key may see. */
  watch_inbox: (message: WatchInboxMessage, ack?: (answer: WatchInboxAck) => void) => void;
  unwatch_inbox: (message?: Record<string, never>) => void;
}

export interface ServerToClientEvents {
  event: (event: RunEvent) => void;
  run_events: (events: RunEventsMessage) => void;
  run_status: (message: RunStatusMessage) => void;
  run_updated: (run: RunRecord) => void;
  session_event: (event: SessionEvent) => void;
  session_updated: (session: SessionSummary) => void;
  /** To `watch_agent` watchers: a test run of the agent started, a case ended, or it finished. */
  test_run_updated: (testRun: TestRunRecord) => void;
  /** To `watch_inbox` watchers: an item began waiting, changed (assigned, snoozed), or stopped waiting. */
  inbox_item_added: (message: InboxItemAdded) => void;
  inbox_item_updated: (message: InboxItemUpdated) => void;
  inbox_item_removed: (message: InboxItemRemoved) => void;
}
