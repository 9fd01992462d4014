import { CreateTriggerRequest, parseJson, TriggerFire } from "@waddle/protocol";
import { z } from "zod";
import { StoreError } from "../waddle-store.js";
import type { StoredFire, TriggerRecord, TriggerSettings } from "./trigger-store.js";

/** The columns of `triggers`, in the order of `toTriggerValues`. */
export const TRIGGER_COLUMNS =
  "id, agent_id, kind, name, enabled, settings, secret, created_at, created_by, updated_at, last_fired_at";
/** The columns of `trigger_fires`, in the order of `toFireValues`. */
export const FIRE_COLUMNS = "id, trigger_id, fired_at, status, run_id, error";

const TriggerRow = z.object({
  id: z.string(),
  agent_id: z.string(),
  kind: z.string(),
  name: z.string().nullable(),
  // SQLite keeps booleans as 0/1.
  enabled: z.union([z.boolean(), z.number()]).transform(Boolean),
  settings: z.string(),
  secret: z.string().nullable(),
  created_at: z.string(),
  created_by: z.string(),
  updated_at: z.string(),
  last_fired_at: z.string().nullable(),
});

const FireRow = z.object({
  id: z.string(),
  trigger_id: z.string(),
  fired_at: z.string(),
  status: z.string(),
  run_id: z.string().nullable(),
  error: z.string().nullable(),
});

/** A trigger's settings: the kind's own fields, without the name and `enabled` (columns of their own). */
export function getTriggerSettings(trigger: TriggerRecord): TriggerSettings {
  const {
    id: _id,
    agentId: _agentId,
    name: _name,
    enabled: _enabled,
    createdAt: _createdAt,
    createdBy: _createdBy,
    updatedAt: _updatedAt,
    lastFiredAt: _lastFiredAt,
    secret: _secret,
    ...settings
  } = trigger;
  return settings as TriggerSettings;
}

/** `enabled` as the database takes it: 0/1 for SQLite, a boolean for PostgreSQL. */
export function toTriggerValues(trigger: TriggerRecord, booleans: "number" | "boolean"): unknown[] {
  return [
    trigger.id,
    trigger.agentId,
    trigger.kind,
    trigger.name,
    booleans === "number" ? Number(trigger.enabled) : trigger.enabled,
    JSON.stringify(getTriggerSettings(trigger)),
    trigger.secret,
    trigger.createdAt,
    trigger.createdBy,
    trigger.updatedAt,
    trigger.lastFiredAt,
  ];
}

/** A stored row, checked: its settings are read with the schema a create is (stored JSON is an edge). */
export function toTriggerRecord(row: unknown): TriggerRecord {
  const parsed = TriggerRow.parse(row);
  const settings = parseJson(parsed.settings);
  const checked = settings.ok
    ? CreateTriggerRequest.safeParse({ ...(settings.value as object), kind: parsed.kind })
    : undefined;
  if (!checked?.success) {
    throw new StoreError("conflict", `Trigger "${parsed.id}" is stored in a shape this server cannot read.`, {
      id: parsed.id,
    });
  }
  const { enabled: _enabled, name: _name, ...kindSettings } = checked.data;
  return {
    ...kindSettings,
    id: parsed.id,
    agentId: parsed.agent_id,
    name: parsed.name,
    enabled: parsed.enabled,
    createdAt: parsed.created_at,
    createdBy: parsed.created_by,
    updatedAt: parsed.updated_at,
    lastFiredAt: parsed.last_fired_at,
    secret: parsed.secret,
  };
}

export function toFireValues(fire: StoredFire): unknown[] {
  return [
    fire.id,
    fire.triggerId,
    fire.firedAt,
    fire.status,
    fire.runId,
    fire.error === null ? null : JSON.stringify(fire.error),
  ];
}

const StoredFireShape = TriggerFire.omit({ runStatus: true });

export function toStoredFire(row: unknown): StoredFire {
  const parsed = FireRow.parse(row);
  const error = parsed.error === null ? null : parseJson(parsed.error);
  const checked = StoredFireShape.safeParse({
    id: parsed.id,
    triggerId: parsed.trigger_id,
    firedAt: parsed.fired_at,
    status: parsed.status,
    runId: parsed.run_id,
    error: error === null ? null : error.ok ? error.value : undefined,
  });
  if (checked.success) return checked.data;
  throw new StoreError("conflict", `Fire "${parsed.id}" is stored in a shape this server cannot read.`, {
    id: parsed.id,
  });
}
