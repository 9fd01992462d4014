import type { Trigger, TriggerFire } from "@waddle/protocol";

/** "every weekday at 9:00"-like words are the cron library's job; the panel shows the expression and zone. */
export function getTriggerSummary(trigger: Trigger): string {
  if (trigger.kind === "schedule") return `${trigger.cron} · ${trigger.timezone}`;
  return `POST ${trigger.hookPath} · ${trigger.secretMode === "hmac" ? "signed (HMAC)" : "bearer secret"}`;
}

/** A trigger's name, or what it does when it has none. */
export function getTriggerTitle(trigger: Trigger): string {
  if (trigger.name) return trigger.name;
  return trigger.kind === "schedule" ? "Schedule" : "Webhook";
}

/** The hook's full URL on the server this page talks to. */
export function getHookUrl(origin: string, hookPath: string): string {
  return `${origin.replace(/\/$/, "")}${hookPath.startsWith("/") ? "" : "/"}${hookPath}`;
}

/** What became of one fire, in words. */
export function getFireLabel(fire: Pick<TriggerFire, "status" | "error" | "runStatus">): string {
  switch (fire.status) {
    case "started":
      return fire.runStatus ? `started a run · ${fire.runStatus}` : "started a run";
    case "queued":
      return "queued behind the previous fire's run";
    case "skipped":
      return fire.error?.code === "skipped_overlap" || !fire.error
        ? "skipped: the previous fire's run was still going"
        : `skipped: ${fire.error.message}`;
    case "failed":
      return fire.error ? `failed: ${fire.error.message} (${fire.error.code})` : "failed";
  }
}

/** "2 triggers · 1 on", or "none". */
export function getTriggersSummary(triggers: readonly { enabled: boolean }[]): string {
  if (triggers.length === 0) return "none";
  const on = triggers.filter((trigger) => trigger.enabled).length;
  return `${triggers.length} trigger${triggers.length === 1 ? "" : "s"} · ${on} on`;
}
