import type { PauseReason } from "@waddle/protocol";

/** What a run paused on, as its `pause` event says: the reason, the tool it waits at, and why. */
export interface RunPauseFact {
  reason: PauseReason;
  tool?: string;
  /** The words of the pause: the tool's question, the hints' conflicts, why approval is needed. */
  detail?: string;
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;

/** Reads a `pause` event's data (its payload is a bounded preview of the planner's). */
export function getPauseFact(data: { reason: PauseReason; payload: Record<string, unknown> }): RunPauseFact {
  const { payload } = data;
  const tool = text(payload.tool);
  let detail: string | undefined;
  if (data.reason === "approval_required") {
    const sideEffects = text(payload.sideEffects);
    detail =
      payload.why === "requires_approval"
        ? "it requires approval"
        : sideEffects
          ? `it has ${sideEffects} side effects`
          : undefined;
  } else if (data.reason === "constraints_conflict" && Array.isArray(payload.conflicts)) {
    const messages = payload.conflicts.flatMap((conflict: unknown) => {
      const message = text((conflict as { message?: unknown } | null)?.message);
      return message ? [message] : [];
    });
    detail = messages.length > 0 ? messages.join(" ") : text(payload.message);
  } else detail = text(payload.message) ?? text(payload.prompt);
  return { reason: data.reason, ...(tool ? { tool } : {}), ...(detail ? { detail } : {}) };
}

/** The pause in words, after "The run " ("paused for approval before calling send (it requires approval)"). */
export function describePause(pause: RunPauseFact): string {
  const why = pause.detail ? ` (${pause.detail})` : "";
  const at = pause.tool ? ` at ${pause.tool}` : "";
  switch (pause.reason) {
    case "approval_required":
      return `paused for approval${pause.tool ? ` before calling ${pause.tool}` : ""}${why}`;
    case "await_input":
      return `paused${at} waiting for a person's input${pause.detail ? `: "${pause.detail}"` : ""}`;
    case "external_event":
      return `paused${at} waiting for an outside event${pause.detail ? `: "${pause.detail}"` : ""}`;
    case "constraints_conflict":
      return `paused on conflicting planning hints${pause.detail ? `: ${pause.detail}` : ""}`;
    case "stuck":
      return `paused as stuck${at}${pause.detail ? `: ${pause.detail}` : ""}`;
    case "guard":
      return `paused by a guard${at}${pause.detail ? `: ${pause.detail}` : ""}`;
  }
}
