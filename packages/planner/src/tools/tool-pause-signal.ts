/**
 * Thrown by `ToolRunContext.pause()`: not an error but a request to pause the run until a person answers.
 * The loop catches it (and never retries it) and returns a `PlannerPause`.
 */
export class ToolPauseSignal extends Error {
  readonly reason: "await_input" | "external_event";
  readonly payload: Record<string, unknown>;

  constructor(reason: "await_input" | "external_event", payload: Record<string, unknown> = {}) {
    super(`The tool asked to pause the run (${reason}).`);
    this.name = "ToolPauseSignal";
    this.reason = reason;
    this.payload = payload;
  }
}

export function isToolPauseSignal(value: unknown): value is ToolPauseSignal {
  return value instanceof ToolPauseSignal;
}
