import type { PublicStep, PublicStreamEvent, RunEvent, ShowSteps } from "@waddle/protocol";
import { ChatDeltaTracker } from "../runs/chat-delta-tracker.js";
import { getWaitingMessage } from "./get-waiting-message.js";

/** What a visitor is told when their answer failed: nothing of why (that is for the designer's History). */
const FAILURES: Readonly<Record<string, { code: string; message: string }>> = {
  run_failed: { code: "turn_failed", message: "The agent could not answer this time. Try again." },
  run_interrupted: {
    code: "turn_interrupted",
    message: "The answer was interrupted. Try again.",
  },
  cancelled: { code: "turn_cancelled", message: "A team member stopped this answer." },
};

/**
 * A turn's run events as the visitor sees them (issue 33), one event at a time: the answer's text as it
 * streams (never the model's thinking), tool steps as `showSteps` allows (`names`: name and status;
 * `full`: args and result too; `none`: nothing), a pause as `waiting` with words that never hold the tool's
 * arguments, `resumed`, the final answer, and a failure without its reasons. Pure: no I/O.
 */
export class PublicTurnMapper {
  private readonly tracker = new ChatDeltaTracker();
  private readonly byCall = new Map<string, PublicStep>();

  constructor(private readonly showSteps: ShowSteps) {}

  /** The steps so far, in the order they started. */
  get steps(): PublicStep[] {
    return [...this.byCall.values()];
  }

  onEvent(event: RunEvent): PublicStreamEvent[] {
    switch (event.type) {
      case "llm_stream_chunk": {
        if (event.data.channel !== "answer") return [];
        const delta = this.tracker.onEvent(event)?.content;
        return delta ? [{ type: "delta", text: delta }] : [];
      }
      case "tool_start":
        return this.step(event.data.callId, {
          name: event.data.tool,
          status: "running",
          ...(this.showSteps === "full" ? { args: event.data.args } : {}),
        });
      case "tool_end":
        return this.end(event.data.callId, event.data.tool, "done", event.data.observation);
      case "tool_error":
        return this.end(event.data.callId, event.data.tool, "failed", {
          error: event.data.failure.error_code,
          message: event.data.failure.message,
        });
      case "pause":
        return [{ type: "waiting", message: getWaitingMessage(event.data) }];
      case "resumed":
        return [{ type: "resumed" }];
      case "run_finished": {
        if (event.data.reason === "cancelled") return [{ type: "error", ...FAILURES["cancelled"]! }];
        const answer = event.data.payload.answer;
        return typeof answer === "string" && answer.length > 0
          ? [{ type: "answer", runId: event.runId, answer }]
          : [];
      }
      case "run_failed":
      case "run_interrupted":
        return [{ type: "error", ...FAILURES[event.type]! }];
      default:
        return [];
    }
  }

  private step(callId: string, step: PublicStep): PublicStreamEvent[] {
    if (this.showSteps === "none") return [];
    this.byCall.set(callId, step);
    return [{ type: "step", step }];
  }

  private end(callId: string, name: string, status: "done" | "failed", result: unknown) {
    const started = this.byCall.get(callId);
    return this.step(callId, {
      name,
      status,
      ...(this.showSteps === "full"
        ? { ...(started?.args === undefined ? {} : { args: started.args }), result }
        : {}),
    });
  }
}
