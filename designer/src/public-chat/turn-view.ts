import type { Rating, ShowSteps } from "@waddle/protocol";
import { addCopyButtons } from "./add-copy-buttons.js";
import { isTurnLive, type ChatTurn } from "./apply-stream-event.js";
import { createElement } from "./create-element.js";
import { createFeedback } from "./feedback-view.js";
import { renderAnswer } from "./sanitize-answer.js";
import { createStepsTrail } from "./steps-trail.js";

export interface TurnViewOptions {
  showSteps: ShowSteps;
  /** Rates the turn's run; rejects with a message to show. */
  onRate(runId: string, rating: Rating, comment?: string): Promise<void>;
}

export interface TurnView {
  element: HTMLLIElement;
  /** Shows the turn as it is now (cheap when little changed: the answer re-renders only when it grew). */
  update(turn: ChatTurn): void;
}

const WAITING_FALLBACK = "Waiting for a team member to approve the next step";

/** The server's waiting message, with an ellipsis: the page goes on by itself once someone decides. */
const getWaitingText = (message: string | null) => `${(message || WAITING_FALLBACK).replace(/[.…]+$/, "")}…`;

/**
 * One exchange: the visitor's message, then the answer streaming into an `aria-live` region (busy while it
 * streams, so a screen reader reads it once, whole), the waiting notice while a person must decide, the
 * steps trail and the rating.
 */
export function createTurnView(initial: ChatTurn, options: TurnViewOptions): TurnView {
  const answer = createElement("div", {
    class: "chat-answer",
    "aria-live": "polite",
    "aria-atomic": "false",
  });
  const typing = createElement("div", { class: "chat-typing", "aria-hidden": "true" }, [
    createElement("span"),
    createElement("span"),
    createElement("span"),
  ]);
  const waiting = createElement("p", {
    class: "chat-waiting",
    "data-testid": "chat-waiting",
    role: "status",
  });
  const problem = createElement("p", { class: "chat-turn-error", role: "alert" });
  const assistant = createElement(
    "div",
    { class: "chat-message is-assistant", "data-testid": "chat-message", "data-role": "assistant" },
    [createElement("span", { class: "sr-only" }, ["Answer:"]), answer, typing, waiting, problem],
  );
  const element = createElement("li", { class: "chat-turn" }, [
    createElement(
      "div",
      { class: "chat-message is-user", "data-testid": "chat-message", "data-role": "user" },
      [createElement("span", { class: "sr-only" }, ["You said:"]), createElement("p", {}, [initial.query])],
    ),
    assistant,
  ]);

  let shownAnswer: string | null = null;
  let trail: HTMLDetailsElement | null = null;
  let feedback: HTMLElement | null = null;
  let shownSteps: ChatTurn["steps"] | null = null;

  const update = (turn: ChatTurn) => {
    const live = isTurnLive(turn);
    assistant.dataset.status = turn.status;
    answer.setAttribute("aria-busy", String(live));
    if (turn.answer !== shownAnswer) {
      shownAnswer = turn.answer;
      answer.replaceChildren(renderAnswer(turn.answer));
      addCopyButtons(answer);
    }
    typing.hidden = !(live && turn.answer === "" && turn.status !== "waiting");
    waiting.hidden = turn.status !== "waiting";
    waiting.textContent = turn.status === "waiting" ? getWaitingText(turn.waitingFor) : "";
    problem.hidden = turn.error === null;
    problem.textContent = turn.error ?? "";
    if (turn.steps !== shownSteps) {
      shownSteps = turn.steps;
      const next = createStepsTrail(turn.steps, options.showSteps, trail?.open ?? false);
      if (trail && next) trail.replaceWith(next);
      else if (trail) trail.remove();
      else if (next) problem.after(next);
      trail = next;
    }
    if (feedback === null && turn.status === "finished" && turn.runId !== null) {
      const runId = turn.runId;
      feedback = createFeedback({
        rating: turn.rating,
        onRate: (rating, comment) => options.onRate(runId, rating, comment),
      });
      assistant.append(feedback);
    }
  };
  update(initial);
  return { element, update };
}
