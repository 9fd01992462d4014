import type { PublicStep, PublicStreamEvent, PublicTurn, Rating } from "@waddle/protocol";

/** One exchange as the page shows it: the visitor's message and the answer as far as it has come. */
export interface ChatTurn {
  /** Known from `turn_started` on (a message being sent has none yet). */
  runId: string | null;
  query: string;
  /** `sending`: the message is on its way and no answer has begun. */
  status: "sending" | PublicTurn["status"];
  answer: string;
  /** The waiting message (never the tool's arguments) while a person must decide. */
  waitingFor: string | null;
  steps: PublicStep[];
  rating: Rating | null;
  /** Why the turn failed, in plain words. */
  error: string | null;
}

export function createSendingTurn(query: string): ChatTurn {
  return {
    runId: null,
    query,
    status: "sending",
    answer: "",
    waitingFor: null,
    steps: [],
    rating: null,
    error: null,
  };
}

/** A turn of a stored transcript as the page shows it. */
export function getTurnFromTranscript(turn: PublicTurn): ChatTurn {
  return {
    runId: turn.runId,
    query: turn.query,
    status: turn.status,
    answer: turn.answer ?? "",
    waitingFor: turn.status === "waiting" ? turn.waitingFor : null,
    steps: turn.steps,
    rating: turn.rating,
    error: turn.status === "failed" && !turn.answer ? "The agent could not answer this message." : null,
  };
}

/** A step's update replaces the same tool's running step; anything else is a new step. */
function upsertStep(steps: readonly PublicStep[], step: PublicStep): PublicStep[] {
  for (let index = steps.length - 1; index >= 0; index -= 1) {
    const existing = steps[index]!;
    if (existing.name === step.name && existing.status === "running") {
      return [...steps.slice(0, index), step, ...steps.slice(index + 1)];
    }
  }
  return [...steps, step];
}

/** `done` with `running` never leaves a turn looking finished: only the final statuses end it. */
const isEnd = (status: PublicTurn["status"]) => status === "finished" || status === "failed";

/**
 * One event of a turn's stream folded into the turn (pure: the live stream and a followed stream after a
 * reload go through it alike). Every stream starts with `turn_started` and replays the turn from its first
 * event, so that one clears what a transcript or an earlier stream had shown. The final `answer` replaces
 * the pieces streamed before it.
 */
export function applyStreamEvent(turn: ChatTurn, event: PublicStreamEvent): ChatTurn {
  switch (event.type) {
    case "turn_started":
      return {
        ...turn,
        runId: event.runId,
        status: "running",
        answer: "",
        steps: [],
        waitingFor: null,
        error: null,
      };
    case "delta":
      return {
        ...turn,
        answer: turn.answer + event.text,
        status: turn.status === "sending" ? "running" : turn.status,
      };
    case "step":
      return {
        ...turn,
        steps: upsertStep(turn.steps, event.step),
        status: turn.status === "sending" ? "running" : turn.status,
      };
    case "waiting":
      return { ...turn, status: "waiting", waitingFor: event.message };
    case "resumed":
      return { ...turn, status: "running", waitingFor: null };
    case "answer":
      return { ...turn, runId: event.runId, answer: event.answer };
    case "error":
      return { ...turn, status: "failed", waitingFor: null, error: event.message };
    case "done":
      if (!isEnd(event.status)) return { ...turn, status: event.status };
      return {
        ...turn,
        status: event.status,
        waitingFor: null,
        error:
          event.status === "failed" ? (turn.error ?? "The agent could not answer this message.") : turn.error,
      };
  }
}

/** True while the turn may still change (the page follows it, and Send waits for it). */
export function isTurnLive(turn: ChatTurn): boolean {
  return turn.status === "sending" || turn.status === "running" || turn.status === "waiting";
}
