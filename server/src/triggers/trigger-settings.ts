import { getTemplatePaths, type Trigger, type UpdateTriggerRequest } from "@waddle/protocol";
import { ApiError } from "../shared/api-error.js";
import type { TriggerRecord, TriggerSettings } from "../store/triggers/trigger-store.js";
import { checkSchedule, createSchedule, getNextFires } from "./schedule-times.js";

/** How many fire times a schedule lists (`nextFires`). */
export const NEXT_FIRES_LISTED = 5;

const SCHEDULE_ONLY = ["cron", "timezone", "overlap", "catchUp"] as const;
const WEBHOOK_ONLY = ["secretMode", "idempotencyField"] as const;

/** A 400 naming the body field to fix, as `parseRequest` answers. */
function fieldError(field: string, message: string): ApiError {
  return new ApiError("validation_failed", `Fix the field "${field}" of the request body: ${message}`, {
    where: "body",
    issues: [{ path: `$.${field}`, message, code: "custom" }],
  });
}

/**
 * Checks what the API takes beyond its schema: a schedule's cron, time zone and interval
 * (`checkSchedule`); that a webhook's query reads the request only as `{{body.…}}`.
 */
export function checkTriggerSettings(settings: TriggerSettings, nowMs: number): void {
  if (settings.kind === "schedule") {
    checkSchedule(settings, nowMs);
    return;
  }
  const stray = getTemplatePaths(settings.query).filter(
    (path) => path !== "body" && !path.startsWith("body."),
  );
  if (stray.length > 0) {
    throw fieldError(
      "query",
      `{{${stray[0]}}} reads nothing: a webhook's query reads the request's JSON as {{body.field}}.`,
    );
  }
}

/**
 * A trigger with a `PATCH` applied: `null` clears `channel` and `idempotencyField`; a field of the other
 * kind is a 400 naming it. The result is checked as a create is.
 */
export function applyTriggerUpdate(
  record: TriggerRecord,
  patch: UpdateTriggerRequest,
  options: { nowMs: number },
): TriggerRecord {
  const foreign = record.kind === "schedule" ? WEBHOOK_ONLY : SCHEDULE_ONLY;
  const misplaced = foreign.find((field) => patch[field] !== undefined);
  if (misplaced) {
    throw fieldError(misplaced, `a ${record.kind} trigger has no "${misplaced}" (its kind cannot change).`);
  }
  const next: Record<string, unknown> = { ...record };
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete next[field];
    else next[field] = value;
  }
  if (patch.name !== undefined) next["name"] = patch.name === "" ? null : patch.name;
  const updated = { ...next, updatedAt: new Date(options.nowMs).toISOString() } as TriggerRecord;
  checkTriggerSettings(updated, options.nowMs);
  return updated;
}

/**
 * A trigger as the API shows it, never with its secret: a schedule with its next fire times (none while
 * disabled), a webhook with the path it is called on.
 */
export function getTriggerView(record: TriggerRecord, nowMs: number): Trigger {
  const { secret: _secret, ...trigger } = record;
  if (trigger.kind === "webhook") return { ...trigger, hookPath: `/hooks/${trigger.id}` };
  return { ...trigger, nextFires: trigger.enabled ? listNextFires(trigger, nowMs) : [] };
}

function listNextFires(times: { cron: string; timezone: string }, nowMs: number): string[] {
  try {
    const schedule = createSchedule(times);
    return getNextFires(schedule, { afterMs: nowMs, count: NEXT_FIRES_LISTED }).map((ms) =>
      new Date(ms).toISOString(),
    );
  } catch {
    // A stored schedule this runtime no longer reads (a time zone gone from its database): no fires.
    return [];
  }
}
