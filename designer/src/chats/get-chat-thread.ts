import { TERMINAL_RUN_STATUSES, type RunStatus, type SessionRecord } from "@waddle/protocol";
import type { PauseView, RunView } from "../runs/fold/run-view.js";
import type { PendingTurn } from "./chat-types.js";
import { getAnswerData } from "../util/get-answer-data.js";

/** One turn of the thread as the chat draws it. */
export interface ChatThreadTurn {
  turn: number;
  runId: string;
  query: string;
  status: RunStatus;
  /** The answer so far (streamed) or final; "" while none. */
  answer: string;
  /** The answer object, when the agent has an answer schema and the turn's run events are folded here. */
  data?: Record<string, unknown>;
  /** The answer is still being written. */
  streaming: boolean;
  /** The thinking channel, when the turn's events are folded here (null: not loaded). */
  thinking: string | null;
  /** The pause waiting for a person, while the turn is paused. */
  pause: PauseView | null;
  error: { code: string; message: string } | null;
}

/** `{data}` when the turn's run finished with an answer object, else nothing (the field stays absent). */
function withAnswerData(view: RunView | undefined): Pick<ChatThreadTurn, "data"> {
  const data = getAnswerData(view?.finish?.payload);
  return data ? { data } : {};
}

/**
 * The thread: the session's turns (the session's word on status and final answer) joined with the turns'
 * run views folded here (the streamed answer, the thinking, the pause), and a turn just sent whose start
 * the session has not logged yet. A turn the session says ended keeps the session's status; one still
 * going shows its run's (a pause, a resume) since the run's events come first.
 */
export function getChatThread(input: {
  record: Pick<SessionRecord, "turns"> | null;
  turnViews: Readonly<Record<string, RunView>>;
  pendingTurn: PendingTurn | null;
}): ChatThreadTurn[] {
  const { record, turnViews, pendingTurn } = input;
  const turns = (record?.turns ?? []).map((turn): ChatThreadTurn => {
    const view = turnViews[turn.runId];
    const ended = TERMINAL_RUN_STATUSES.has(turn.status);
    const status = ended ? turn.status : (view?.status ?? turn.status);
    const answer = ended ? (turn.answer ?? view?.finish?.answer ?? view?.answer ?? "") : (view?.answer ?? "");
    return {
      turn: turn.turn,
      runId: turn.runId,
      query: turn.query,
      status,
      answer,
      ...withAnswerData(view),
      streaming: !ended && view !== undefined && !view.answerDone && answer !== "",
      thinking: view ? view.thinking : null,
      pause: status === "paused" ? (view?.pause ?? null) : null,
      error: view?.error ?? null,
    };
  });
  if (pendingTurn && !turns.some((turn) => turn.runId === pendingTurn.runId)) {
    const view = turnViews[pendingTurn.runId];
    turns.push({
      turn: (turns.at(-1)?.turn ?? 0) + 1,
      runId: pendingTurn.runId,
      query: pendingTurn.query,
      status: view?.status ?? "queued",
      answer: view?.answer ?? "",
      ...withAnswerData(view),
      streaming: view !== undefined && !view.answerDone && view.answer !== "",
      thinking: view ? view.thinking : null,
      pause: view?.status === "paused" ? view.pause : null,
      error: view?.error ?? null,
    });
  }
  return turns;
}
