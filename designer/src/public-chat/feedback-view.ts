import type { Rating } from "@waddle/protocol";
import { createElement, createIcon, ICONS } from "./create-element.js";

export interface FeedbackOptions {
  rating: Rating | null;
  /** Sends the rating (and comment); rejects with a message to show when it failed. */
  onRate(rating: Rating, comment?: string): Promise<void>;
}

const COMMENT_PROMPT: Readonly<Record<Rating, string>> = {
  up: "What was helpful? (optional)",
  down: "What went wrong? (optional)",
};

/**
 * Thumbs up and down under a finished answer, then an optional comment. A rating is sent at once (a visitor
 * who never writes the comment still counts); the comment is sent with the same rating after.
 */
export function createFeedback(options: FeedbackOptions): HTMLElement {
  let rating = options.rating;
  const note = createElement("span", { class: "chat-feedback-note", role: "status" });
  const rateButton = (value: Rating) =>
    createElement(
      "button",
      {
        type: "button",
        class: "chat-rate",
        "aria-pressed": String(rating === value),
        "aria-label": value === "up" ? "Good answer" : "Bad answer",
        title: value === "up" ? "Good answer" : "Bad answer",
        "data-testid": `chat-rating-${value}`,
      },
      [createIcon(value === "up" ? ICONS.thumbUp : ICONS.thumbDown, 16)],
    );
  const up = rateButton("up");
  const down = rateButton("down");
  const commentId = `chat-comment-${Math.random().toString(36).slice(2, 10)}`;
  const label = createElement("label", { for: commentId }, [""]);
  const comment = createElement("textarea", {
    id: commentId,
    rows: "2",
    maxlength: "2000",
    "data-testid": "chat-comment",
  });
  const send = createElement(
    "button",
    { type: "submit", class: "chat-button", "data-testid": "chat-comment-send" },
    ["Send feedback"],
  );
  const form = createElement("form", { class: "chat-comment", hidden: true }, [label, comment, send]);

  const choose = async (value: Rating) => {
    up.disabled = down.disabled = true;
    note.textContent = "";
    try {
      await options.onRate(value);
      rating = value;
      up.setAttribute("aria-pressed", String(value === "up"));
      down.setAttribute("aria-pressed", String(value === "down"));
      label.textContent = COMMENT_PROMPT[value];
      form.hidden = false;
      note.textContent = "Thanks! Add a comment below if you like.";
    } catch (error) {
      note.textContent = error instanceof Error ? error.message : "The rating was not sent.";
    } finally {
      up.disabled = down.disabled = false;
    }
  };
  up.addEventListener("click", () => void choose("up"));
  down.addEventListener("click", () => void choose("down"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = comment.value.trim();
    if (rating === null || text === "") return;
    send.disabled = true;
    void options.onRate(rating, text).then(
      () => {
        form.hidden = true;
        note.textContent = "Thanks for your feedback.";
      },
      (error: unknown) => {
        send.disabled = false;
        note.textContent = error instanceof Error ? error.message : "The comment was not sent.";
      },
    );
  });

  return createElement("div", { class: "chat-feedback" }, [
    createElement("div", { class: "chat-feedback-row", role: "group", "aria-label": "Rate this answer" }, [
      up,
      down,
      note,
    ]),
    form,
  ]);
}
