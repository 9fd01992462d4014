import { z } from "zod";
import { ChannelName } from "./releases.js";

/**
 * Triggers (issue 34): an agent starts on its own, on a schedule or when a webhook arrives. Fired runs use
 * the trigger's channel (default `production`, else the latest save) and carry `trigger: {id, kind}`.
 */

export const TriggerKind = z.enum(["schedule", "webhook"]);
export type TriggerKind = z.infer<typeof TriggerKind>;

/** The fewest seconds between two fires of a schedule. */
export const MIN_SCHEDULE_INTERVAL_S = 10;

/** A trigger's id: `trg_` and 16 hex characters, made by the server. */
export const TriggerId = z
  .string()
  .regex(/^trg_[A-Za-z0-9_-]{1,80}$/, "must be a trigger id such as trg_4f9c2a1b");

/** Refusals of webhook triggers (`docs/guides/triggers.md`). */
export const TRIGGER_ERROR_CODES = [
  /** A webhook's body does not fill its query template: `details.fields` names what is missing; nothing ran. */
  "missing_fields",
  /** The trigger's channel does not exist (any more): the fire failed, and its fires list says so. */
  "channel_not_found",
] as const;

const Query = z.string().trim().min(1).max(20_000);
const Context = z.record(z.string(), z.unknown());

export const ScheduleTriggerFields = z.object({
  kind: z.literal("schedule"),
  /** Five fields, or six with seconds first. Checked by the server (400 naming `cron`). */
  cron: z.string().trim().min(1).max(200),
  /** An IANA time zone (`Europe/Paris`); 400 naming `timezone` when unknown. */
  timezone: z.string().min(1).max(100),
  query: Query,
  context: Context.optional(),
  channel: ChannelName.optional(),
  /** The previous fire's run is still going: skip this tick, queue it after, or run both. */
  overlap: z.enum(["skip", "queue", "allow"]),
  /** Ticks missed while no server ran: none, or fire the last one at start. */
  catchUp: z.enum(["none", "last"]),
});

export const WebhookTriggerFields = z.object({
  kind: z.literal("webhook"),
  /** A template: `{{body.subject}}` fills from the request's JSON, as tools' templates do. */
  query: Query,
  context: Context.optional(),
  channel: ChannelName.optional(),
  secretMode: z.enum(["hmac", "bearer"]),
  /** A field of the body whose value makes a redelivered event one run (besides `Idempotency-Key`). */
  idempotencyField: z.string().min(1).max(200).optional(),
});

/** `POST /api/agents/:id/triggers`. */
export const CreateTriggerRequest = z.discriminatedUnion("kind", [
  ScheduleTriggerFields.extend({
    enabled: z.boolean().optional(),
    name: z.string().max(120).optional(),
  }).strict(),
  WebhookTriggerFields.extend({
    enabled: z.boolean().optional(),
    name: z.string().max(120).optional(),
  }).strict(),
]);
export type CreateTriggerRequest = z.infer<typeof CreateTriggerRequest>;

/** `PATCH /api/agents/:id/triggers/:triggerId`: any field but `kind`. */
export const UpdateTriggerRequest = z.strictObject({
  enabled: z.boolean().optional(),
  name: z.string().max(120).optional(),
  cron: ScheduleTriggerFields.shape.cron.optional(),
  timezone: ScheduleTriggerFields.shape.timezone.optional(),
  query: Query.optional(),
  context: Context.optional(),
  channel: ChannelName.nullable().optional(),
  overlap: ScheduleTriggerFields.shape.overlap.optional(),
  catchUp: ScheduleTriggerFields.shape.catchUp.optional(),
  secretMode: WebhookTriggerFields.shape.secretMode.optional(),
  idempotencyField: z.string().min(1).max(200).nullable().optional(),
});
export type UpdateTriggerRequest = z.infer<typeof UpdateTriggerRequest>;

const TriggerCommon = z.object({
  id: z.string(),
  agentId: z.string(),
  name: z.string().nullable(),
  enabled: z.boolean(),
  createdAt: z.string(),
  createdBy: z.string(),
  updatedAt: z.string(),
  lastFiredAt: z.string().nullable(),
});

export const Trigger = z.discriminatedUnion("kind", [
  ScheduleTriggerFields.extend(TriggerCommon.shape).extend({
    /** The next fire times (ISO), up to five. */
    nextFires: z.array(z.string()),
  }),
  WebhookTriggerFields.extend(TriggerCommon.shape).extend({
    /** `POST /hooks/:triggerId`, as a path (the page adds its origin). */
    hookPath: z.string(),
  }),
]);
export type Trigger = z.infer<typeof Trigger>;

/** `POST /api/agents/:id/triggers` → 201: a webhook trigger's secret is shown this once. */
export const CreateTriggerResponse = z.object({ trigger: Trigger, secret: z.string().optional() });
export type CreateTriggerResponse = z.infer<typeof CreateTriggerResponse>;
export const TriggersResponse = z.object({ triggers: z.array(Trigger) });
export type TriggersResponse = z.infer<typeof TriggersResponse>;

/** One fire: when, its run, or why it started none (`skipped_overlap`, `channel_not_found`…). */
export const TriggerFire = z.object({
  id: z.string(),
  triggerId: z.string(),
  /** The tick it fired for (schedule), or when the request arrived (webhook). */
  firedAt: z.string(),
  status: z.enum(["started", "skipped", "queued", "failed"]),
  runId: z.string().nullable(),
  runStatus: z.string().nullable().optional(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type TriggerFire = z.infer<typeof TriggerFire>;
export const TriggerFiresResponse = z.object({ fires: z.array(TriggerFire) });
export type TriggerFiresResponse = z.infer<typeof TriggerFiresResponse>;

/** What a fired run's summary carries. */
export const RunTrigger = z.object({ id: z.string(), kind: TriggerKind });
export type RunTrigger = z.infer<typeof RunTrigger>;

/** `POST /hooks/:triggerId` → 202, or with `?wait=S` the answer when the run ended in time. */
export const HookResponse = z.object({
  runId: z.string(),
  /** True when an earlier delivery with the same idempotency key started this run. */
  duplicate: z.boolean().optional(),
  status: z.string().optional(),
  answer: z.unknown().optional(),
});
export type HookResponse = z.infer<typeof HookResponse>;
