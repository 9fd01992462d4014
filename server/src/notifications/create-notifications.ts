import type { CredentialVault } from "../credentials/credential-vault.js";
import type { RunObserver } from "../runs/run-observer.js";
import { RedisConnections } from "../scale/redis-connections.js";
import type { Logger } from "../shared/logger.js";
import type { HostLookup } from "../tools/resolve-allowed-address.js";
import type { WaddleStore } from "../store/waddle-store.js";
import { BullmqOutbox } from "./bullmq-outbox.js";
import { InProcessOutbox } from "./in-process-outbox.js";
import { NotificationOutbox } from "./notification-outbox.js";
import {
  createMergeListener,
  createNotificationObserver,
  type SessionChange,
} from "./notification-observer.js";
import { createInboxListener, type InboxNoticeSource } from "./inbox-notifications.js";
import type { NotifyFunction } from "./notify.js";
import type { OutboxScheduler } from "./outbox-scheduler.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy.js";
import { WebhookAdmin } from "./webhook-admin.js";
import { WebhookDeliverer } from "./webhook-deliverer.js";
import type { WebhookDelivery } from "@waddle/protocol";

/** How notifications are delivered; the defaults suit a server, tests shorten the waits. */
export interface NotificationSettings {
  /** Each attempt gives up after this long (default 10 s), counted as a network error and retried. */
  timeoutMs?: number;
  /** Backoff and window (default 5 s doubling to an hour, for 24 hours). */
  retry?: Partial<RetryPolicy>;
  /** Attempts under way at once in this process (default 8). */
  concurrency?: number;
  /** Queue mode: a worker looks this often for entries no job carried (default 10 s). */
  sweepMs?: number;
  /** Resolves target hosts (tests answer what they need); the system resolver by default. */
  lookup?: HostLookup;
  /** Told of every attempt recorded (tests). */
  onAttempt?: (delivery: WebhookDelivery) => void;
}

/** Notifications as the server wires them. */
export interface Notifications {
  /** See `NotifyFunction`: the triggers, the inbox and releases call it. */
  notify: NotifyFunction;
  outbox: NotificationOutbox;
  admin: WebhookAdmin;
  /** Run events that notify (combined with the server's other observers). */
  observer: RunObserver;
  /** Session changes that notify (held merges), until the inbox announces them. */
  onSessionChange: (change: SessionChange) => void;
  /**
   * Notifies the inbox's events (`pause.created`, `pause.due_soon`, `pause.timed_out`, `merge.pending`),
   * each once across instances; from then on run pauses and session merges no longer notify here.
   */
  listenToInbox(source: InboxNoticeSource): void;
  /** Starts delivering; `serverUrl` is the designer's address when `WADDLE_PUBLIC_URL` is not set. */
  start(serverUrl: string): void;
  close(): Promise<void>;
}

/**
 * Builds notifications over the store: webhooks sealed with the credentials' key, the allow-list as the
 * vault has it now, and the outbox attempted in this process, or by BullMQ's workers with `queue`
 * (queue mode: one delivery of each notification across instances).
 */
export function createNotifications(options: {
  store: WaddleStore;
  vault: CredentialVault;
  logger: Logger;
  /** `WADDLE_PUBLIC_URL`: where people reach the designer (links in notifications). */
  publicUrl?: string | undefined;
  settings?: NotificationSettings | undefined;
  /** Queue mode; `worker` false on an `api` instance (it only enqueues). */
  queue?: { redisUrl: string; worker: boolean } | undefined;
}): Notifications {
  const { store, vault, logger } = options;
  const settings = options.settings ?? {};
  const timeoutMs = settings.timeoutMs ?? 10_000;
  // Longer than an attempt may take, so that a claim never runs out under a live attempt.
  const leaseMs = timeoutMs + 30_000;
  const getAllowList = async () => (await vault.getRunSettings()).allowList;
  const admin = new WebhookAdmin({
    store: store.webhooks,
    sealer: vault,
    getAllowList,
    agentExists: async (agentId) => (await store.getAgent(agentId)) !== undefined,
  });
  const deliverer = new WebhookDeliverer({
    store: store.webhooks,
    openSecret: (webhook) => admin.openSecret(webhook),
    getAllowList,
    policy: { ...DEFAULT_RETRY_POLICY, ...settings.retry },
    timeoutMs,
    logger,
    ...(settings.lookup ? { lookup: settings.lookup } : {}),
    ...(settings.onAttempt ? { onAttempt: settings.onAttempt } : {}),
  });
  const concurrency = settings.concurrency ?? 8;
  let redis: RedisConnections | undefined;
  let scheduler: OutboxScheduler;
  if (options.queue) {
    redis = new RedisConnections(options.queue.redisUrl, logger);
    scheduler = new BullmqOutbox({
      connection: redis.create("notifications"),
      ...(options.queue.worker
        ? { workerConnection: redis.create("notifications-worker", { blocking: true }) }
        : {}),
      store: store.webhooks,
      deliverer,
      logger,
      concurrency,
      leaseMs,
      sweepMs: settings.sweepMs ?? 10_000,
    });
  } else {
    scheduler = new InProcessOutbox({ store: store.webhooks, deliverer, logger, concurrency, leaseMs });
  }
  let serverUrl = "http://127.0.0.1";
  let stopInbox: (() => void) | undefined;
  const mergeListener = createMergeListener((type, data) => outbox.notify(type, data));
  const outbox = new NotificationOutbox({
    store: store.webhooks,
    scheduler,
    deliverer,
    logger,
    getPublicUrl: () => options.publicUrl ?? serverUrl,
    leaseMs,
  });
  return {
    notify: outbox.notify,
    outbox,
    admin,
    observer: createNotificationObserver({ notify: outbox.notify, pauses: () => stopInbox === undefined }),
    onSessionChange: (change) => {
      if (stopInbox === undefined) mergeListener(change);
    },
    listenToInbox(source) {
      stopInbox?.();
      stopInbox = source.on(createInboxListener(outbox.notify));
    },
    start(url) {
      serverUrl = url;
      scheduler.start();
    },
    async close() {
      stopInbox?.();
      await scheduler.close();
      await redis?.close();
    },
  };
}
