import type { Attributes, Span } from "@opentelemetry/api";
import type { RunEventOf } from "@waddle/protocol";

/**
 * A guard's decision as span attributes: its name, stage, check kind, verdict, what was done and its
 * findings as `kind:count` (never the text it matched, nor its message, which may quote a check's error).
 */
export function getGuardVerdictAttributes(data: RunEventOf<"guard_verdict">["data"]): Attributes {
  return {
    "waddle.guard.name": data.guard,
    "waddle.guard.on": data.on,
    "waddle.guard.check": data.check,
    "waddle.guard.verdict": data.verdict,
    "waddle.guard.action": data.action,
    "waddle.guard.findings": data.findings.map((finding) => `${finding.kind}:${finding.count}`),
    ...(data.tool === undefined ? {} : { "gen_ai.tool.name": data.tool }),
    ...(data.durationMs === undefined ? {} : { "waddle.guard.duration_ms": data.durationMs }),
  };
}

/**
 * Records `guard_checking` and `guard_verdict` as span events on the run's span; a `tool_result` verdict
 * also goes on its tool call's span while that is open (by `callId` when the event has one, else the one
 * open call of that tool).
 */
export function recordGuardEvent(
  event: RunEventOf<"guard_checking" | "guard_verdict">,
  segment: Span,
  tools: ReadonlyMap<string, { span: Span; tool: string }>,
): void {
  if (event.type === "guard_checking") {
    segment.addEvent(
      "guard_checking",
      { "waddle.guard.on": event.data.on, "waddle.guard.names": event.data.guards },
      event.ts,
    );
    return;
  }
  const attributes = getGuardVerdictAttributes(event.data);
  segment.addEvent("guard_verdict", attributes, event.ts);
  if (event.data.on !== "tool_result") return;
  const callId = (event.data as { callId?: unknown }).callId;
  const open =
    typeof callId === "string"
      ? tools.get(callId)
      : getOnly([...tools.values()].filter((candidate) => candidate.tool === event.data.tool));
  open?.span.addEvent("guard_verdict", attributes, event.ts);
}

function getOnly<T>(values: readonly T[]): T | undefined {
  return values.length === 1 ? values[0] : undefined;
}
