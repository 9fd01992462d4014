import type { NotificationEvent } from "@waddle/protocol";

/**
 * What a notification says. `agentId` picks the webhooks that listen to that agent (`agents`); `runId`
 * (with `sessionId` for a turn) gives the body's `data.link` to the run in the designer. Everything else is
 * passed on as it is: keep it small and free of secrets.
 */
export interface NotificationData {
  agentId?: string;
  runId?: string;
  sessionId?: string;
  /** A sentence a person reads (the Slack text starts with it). */
  summary?: string;
  [key: string]: unknown;
}

/** What `trigger.failed` carries (the triggers' fires call `notify` with it). */
export interface TriggerFailedData extends NotificationData {
  agentId: string;
  triggerId: string;
  kind: "schedule" | "webhook";
  error: { code: string; message: string };
  fireId?: string;
  runId?: string;
}

/** The data each event type is sent with; the types not listed here take `NotificationData`. */
export interface NotificationDataByType {
  "trigger.failed": TriggerFailedData;
}

export type NotificationDataOf<Type extends NotificationEvent> = Type extends keyof NotificationDataByType
  ? NotificationDataByType[Type]
  : NotificationData;

/**
 * Sends a notification to every webhook that listens to `type` (and to the data's agent). It only
 * enqueues: it returns at once, never throws and never waits for a target, so a caller on a run's path
 * is neither slowed nor failed by a notification.
 */
export type NotifyFunction = <Type extends NotificationEvent>(
  type: Type,
  data: NotificationDataOf<Type>,
) => void;

/** A `NotifyFunction` that sends nothing (a server part built without notifications, a test). */
export const notifyNothing: NotifyFunction = () => undefined;
