import { NotificationBody, NotificationEvent, parseJson, WebhookDelivery } from "@waddle/protocol";
import { z } from "zod";
import { StoreError } from "../waddle-store.js";
import type { OutboxEntry, StoredWebhook, WebhookPatch } from "./webhook-store.js";

/** A webhook as SQLite and PostgreSQL keep it: events and agents as JSON text. */
export interface WebhookRow {
  id: string;
  url: string;
  events: string;
  agents: string | null;
  format: string;
  enabled: number | boolean;
  sealed_secret: string;
  created_at: string;
  created_by: string;
  updated_at: string;
}

/** An outbox entry's row; PostgreSQL answers its bigint times as strings. */
export interface OutboxRow {
  id: string;
  webhook_id: string;
  body: string;
  state: string;
  attempts: number;
  created_at_ms: number | string;
  next_attempt_at_ms: number | string | null;
}

export const WEBHOOK_COLUMNS =
  "id, url, events, agents, format, enabled, sealed_secret, created_at, created_by, updated_at";

export function toWebhookValues(webhook: StoredWebhook, sqlite: boolean): unknown[] {
  return [
    webhook.id,
    webhook.url,
    JSON.stringify(webhook.events),
    webhook.agents === null ? null : JSON.stringify(webhook.agents),
    webhook.format,
    sqlite ? (webhook.enabled ? 1 : 0) : webhook.enabled,
    webhook.sealedSecret,
    webhook.createdAt,
    webhook.createdBy,
    webhook.updatedAt,
  ];
}

/** The `SET` list of an update (columns in order) and its values; nothing for an empty patch. */
export function getWebhookSets(
  patch: WebhookPatch,
  sqlite: boolean,
): { columns: string[]; values: unknown[] } {
  const columns: string[] = [];
  const values: unknown[] = [];
  const set = (column: string, value: unknown) => {
    columns.push(column);
    values.push(value);
  };
  if (patch.url !== undefined) set("url", patch.url);
  if (patch.events !== undefined) set("events", JSON.stringify(patch.events));
  if (patch.agents !== undefined) set("agents", patch.agents === null ? null : JSON.stringify(patch.agents));
  if (patch.format !== undefined) set("format", patch.format);
  if (patch.enabled !== undefined) set("enabled", sqlite ? (patch.enabled ? 1 : 0) : patch.enabled);
  if (patch.sealedSecret !== undefined) set("sealed_secret", patch.sealedSecret);
  if (patch.updatedAt !== undefined) set("updated_at", patch.updatedAt);
  return { columns, values };
}

const StoredEvents = z.array(NotificationEvent);
const StoredAgents = z.array(z.string()).nullable();
const Format = z.enum(["json", "slack"]);
const State = z.enum(["pending", "delivered", "failed"]);

export function toStoredWebhook(row: WebhookRow): StoredWebhook {
  return {
    id: row.id,
    url: row.url,
    events: readJson(row.id, row.events, StoredEvents),
    agents: row.agents === null ? null : readJson(row.id, row.agents, StoredAgents),
    format: readValue(row.id, row.format, Format),
    enabled: row.enabled === true || row.enabled === 1,
    sealedSecret: row.sealed_secret,
    createdAt: row.created_at,
    createdBy: row.created_by,
    updatedAt: row.updated_at,
  };
}

export function toOutboxEntry(row: OutboxRow): OutboxEntry {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    body: readJson(row.id, row.body, NotificationBody),
    state: readValue(row.id, row.state, State),
    attempts: Number(row.attempts),
    createdAtMs: Number(row.created_at_ms),
    nextAttemptAtMs: row.next_attempt_at_ms === null ? null : Number(row.next_attempt_at_ms),
  };
}

export function toWebhookDelivery(id: string, record: string): WebhookDelivery {
  return readJson(id, record, WebhookDelivery);
}

function readJson<T>(id: string, text: string, schema: z.ZodType<T>): T {
  const parsed = parseJson(text);
  if (parsed.ok) return readValue(id, parsed.value, schema);
  throw unreadable(id);
}

function readValue<T>(id: string, value: unknown, schema: z.ZodType<T>): T {
  const checked = schema.safeParse(value);
  if (checked.success) return checked.data;
  throw unreadable(id);
}

function unreadable(id: string): StoreError {
  return new StoreError("conflict", `Webhook row "${id}" is stored in a shape this server cannot read.`, {
    id,
  });
}
