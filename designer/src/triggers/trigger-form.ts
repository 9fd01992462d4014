import {
  ChannelName,
  MIN_SCHEDULE_INTERVAL_S,
  type CreateTriggerRequest,
  type Trigger,
  type TriggerKind,
  type UpdateTriggerRequest,
} from "@waddle/protocol";

/** The Triggers panel's form: every field of either kind as typed (the kind picks which are sent). */
export interface TriggerForm {
  kind: TriggerKind;
  name: string;
  enabled: boolean;
  query: string;
  /** Empty: the trigger's default (production, else the latest save). */
  channel: string;
  cron: string;
  timezone: string;
  overlap: "skip" | "queue" | "allow";
  catchUp: "none" | "last";
  secretMode: "hmac" | "bearer";
  idempotencyField: string;
}

export type TriggerFormErrors = Partial<Record<keyof TriggerForm, string>>;

/** The browser's IANA time zone, the default of a new schedule. */
export function getBrowserTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** A new trigger's form: every ten minutes in the browser's time zone, or an HMAC-signed webhook. */
export function getNewTriggerForm(kind: TriggerKind, timezone: string): TriggerForm {
  return {
    kind,
    name: "",
    enabled: true,
    query: kind === "webhook" ? "New event: {{body.subject}}" : "",
    channel: "",
    cron: "*/10 * * * *",
    timezone,
    overlap: "skip",
    catchUp: "none",
    secretMode: "hmac",
    idempotencyField: "",
  };
}

/** The form of a saved trigger, to edit it. */
export function getTriggerForm(trigger: Trigger): TriggerForm {
  const base = getNewTriggerForm(trigger.kind, trigger.kind === "schedule" ? trigger.timezone : "UTC");
  const common = {
    ...base,
    name: trigger.name ?? "",
    enabled: trigger.enabled,
    query: trigger.query,
    channel: trigger.channel ?? "",
  };
  return trigger.kind === "schedule"
    ? { ...common, cron: trigger.cron, overlap: trigger.overlap, catchUp: trigger.catchUp }
    : { ...common, secretMode: trigger.secretMode, idempotencyField: trigger.idempotencyField ?? "" };
}

const CRON_FIELD = /^[\d*?LW#/,A-Za-z-]+$/;

/** The seconds field's smallest step when it fires more than once a minute (`*`, `*\/5`, `0-59`), else null. */
function getSecondsStep(field: string): number | null {
  if (field === "*") return 1;
  const step = /^(?:\*|\d+(?:-\d+)?)\/(\d+)$/.exec(field);
  if (step) return Number(step[1]);
  if (/^\d+-\d+$/.test(field)) return 1;
  const list = field.split(",").map(Number);
  if (list.length < 2 || list.some((value) => !Number.isInteger(value))) return null;
  const sorted = [...list].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((value, index) => value - sorted[index]!);
  gaps.push(60 - sorted.at(-1)! + sorted[0]!);
  return Math.min(...gaps);
}

/**
 * What is wrong with a cron expression that the page can tell before the server parses it: five fields
 * (or six, seconds first), and no schedule more often than every MIN_SCHEDULE_INTERVAL_S seconds. The
 * server's parser has the last word (a 400 naming `cron`).
 */
export function getCronProblem(cron: string): string | null {
  const fields = cron.trim().split(/\s+/).filter(Boolean);
  if (fields.length === 0) return "Enter a cron expression, such as */10 * * * * (every ten minutes).";
  if (fields.length !== 5 && fields.length !== 6)
    return `A cron expression has 5 fields (minute hour day month weekday), or 6 with seconds first; this has ${fields.length}.`;
  const bad = fields.find((field) => !CRON_FIELD.test(field));
  if (bad) return `"${bad}" is not a cron field.`;
  if (fields.length === 6) {
    const step = getSecondsStep(fields[0]!);
    if (step !== null && step < MIN_SCHEDULE_INTERVAL_S)
      return `This fires every ${step} s; a schedule fires at most every ${MIN_SCHEDULE_INTERVAL_S} seconds.`;
  }
  return null;
}

/** A valid IANA time zone for this browser's Intl (the server checks with its own). */
export function isKnownTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** The form's problems by field, empty when it can be sent. */
export function getTriggerFormErrors(form: TriggerForm): TriggerFormErrors {
  const errors: TriggerFormErrors = {};
  if (!form.query.trim()) errors.query = "Say what the run is asked (the query).";
  if (form.channel && !ChannelName.safeParse(form.channel).success)
    errors.channel = "A channel name such as production or staging: lowercase letters, digits and dashes.";
  if (form.kind === "schedule") {
    const cron = getCronProblem(form.cron);
    if (cron) errors.cron = cron;
    if (!form.timezone.trim()) errors.timezone = "Enter a time zone, such as Europe/Paris or UTC.";
    else if (!isKnownTimezone(form.timezone.trim()))
      errors.timezone = `"${form.timezone.trim()}" is not a time zone; use an IANA name such as Europe/Paris.`;
  }
  return errors;
}

/** `POST /api/agents/:id/triggers`'s body for the form (only the fields its kind has). */
export function getCreateTriggerRequest(form: TriggerForm): CreateTriggerRequest {
  const common = {
    query: form.query.trim(),
    enabled: form.enabled,
    ...(form.name.trim() ? { name: form.name.trim() } : {}),
    ...(form.channel ? { channel: form.channel } : {}),
  };
  if (form.kind === "schedule") {
    return {
      kind: "schedule",
      ...common,
      cron: form.cron.trim().replace(/\s+/g, " "),
      timezone: form.timezone.trim(),
      overlap: form.overlap,
      catchUp: form.catchUp,
    };
  }
  return {
    kind: "webhook",
    ...common,
    secretMode: form.secretMode,
    ...(form.idempotencyField.trim() ? { idempotencyField: form.idempotencyField.trim() } : {}),
  };
}

/** `PATCH`'s body: the fields that differ from the saved trigger (a cleared channel or field sent as null). */
export function getUpdateTriggerRequest(form: TriggerForm, saved: Trigger): UpdateTriggerRequest {
  const next = getCreateTriggerRequest(form);
  const before = getCreateTriggerRequest(getTriggerForm(saved));
  const patch: Record<string, unknown> = {};
  const keys = new Set([...Object.keys(next), ...Object.keys(before)]);
  keys.delete("kind");
  for (const key of keys) {
    const value = (next as Record<string, unknown>)[key];
    if (JSON.stringify(value) === JSON.stringify((before as Record<string, unknown>)[key])) continue;
    patch[key] = value === undefined ? (key === "name" ? "" : null) : value;
  }
  return patch as UpdateTriggerRequest;
}
