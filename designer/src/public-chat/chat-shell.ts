import type { PublicChatConfig } from "@waddle/protocol";
import { createElement, createIcon, ICONS } from "./create-element.js";
import type { ChatProblem } from "./describe-chat-error.js";
import { getAccentText } from "./get-accent-text.js";
import { renderAnswer } from "./sanitize-answer.js";

export interface ChatShell {
  root: HTMLElement;
  scroller: HTMLElement;
  log: HTMLOListElement;
  intro: HTMLElement;
  starters: HTMLElement;
  composerSlot: HTMLElement;
  newButton: HTMLButtonElement;
  showProblem(problem: ChatProblem | null, onNewConversation: () => void): void;
  /** Scrolls to the newest message when the visitor was already at the bottom (or `force`). */
  scrollToEnd(force?: boolean): void;
}

/** In the embed's panel: closes it (on a phone the panel covers the page's own chat button). */
function createCloseButton(onClose: () => void): HTMLButtonElement {
  const button = createElement(
    "button",
    {
      type: "button",
      class: "chat-close",
      "aria-label": "Close the chat",
      title: "Close (Esc)",
      "data-testid": "chat-close",
    },
    [createIcon(ICONS.close, 18)],
  );
  button.addEventListener("click", onClose);
  return button;
}

/** The page's frame: header (logo, title, New conversation), welcome and starters, the log, the composer. */
export function createChatShell(
  config: PublicChatConfig,
  options: { onStarter(text: string): void; onClose: (() => void) | null },
): ChatShell {
  if (config.theme.accent) {
    document.documentElement.style.setProperty("--accent", config.theme.accent);
    document.documentElement.style.setProperty("--accent-text", getAccentText(config.theme.accent));
  }
  document.title = config.title;
  const newButton = createElement(
    "button",
    { type: "button", class: "chat-new", "data-testid": "chat-new", title: "Start a new conversation" },
    // "New" stays on a phone and in the embed's panel; the rest of the label is there for screen readers
    [
      createIcon(ICONS.plus, 16),
      createElement("span", {}, [
        "New",
        createElement("span", { class: "chat-new-rest" }, [" conversation"]),
      ]),
    ],
  );
  const header = createElement("header", { class: "chat-header" }, [
    config.theme.logoUrl
      ? createElement("img", {
          class: "chat-logo",
          src: config.theme.logoUrl,
          alt: "",
          width: "28",
          height: "28",
        })
      : createElement("span", { class: "chat-logo is-initial", "aria-hidden": "true" }, [
          config.title.trim().charAt(0).toUpperCase() || "?",
        ]),
    createElement("h1", { class: "chat-title" }, [config.title]),
    newButton,
    options.onClose ? createCloseButton(options.onClose) : null,
  ]);
  const welcome = createElement("div", { class: "chat-message is-assistant chat-welcome" });
  if (config.welcome) welcome.append(renderAnswer(config.welcome));
  else welcome.hidden = true;
  const starters = createElement("div", {
    class: "chat-starters",
    role: "group",
    "aria-label": "Suggestions",
  });
  for (const text of config.starters) {
    const button = createElement(
      "button",
      { type: "button", class: "chat-starter", "data-testid": "chat-starter" },
      [text],
    );
    button.addEventListener("click", () => options.onStarter(text));
    starters.append(button);
  }
  starters.hidden = config.starters.length === 0;
  const intro = createElement("div", { class: "chat-intro" }, [welcome, starters]);
  const log = createElement("ol", { class: "chat-log", "aria-label": "Conversation" });
  const scroller = createElement("main", { class: "chat-scroll", tabindex: "-1" }, [intro, log]);
  const problemText = createElement("span");
  const problemAction = createElement("button", { type: "button", class: "chat-button", hidden: true }, [
    "New conversation",
  ]);
  const problem = createElement(
    "div",
    { class: "chat-problem", role: "alert", "data-testid": "chat-problem" },
    [problemText, problemAction],
  );
  problem.hidden = true;
  const composerSlot = createElement("div", { class: "chat-bottom" }, [problem]);
  const root = createElement("div", { class: "chat" }, [header, scroller, composerSlot]);

  let onProblemAction = () => undefined as void;
  problemAction.addEventListener("click", () => onProblemAction());
  let pinned = true;
  scroller.addEventListener("scroll", () => {
    pinned = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 48;
  });

  return {
    root,
    scroller,
    log,
    intro,
    starters,
    composerSlot,
    newButton,
    showProblem(value, onNewConversation) {
      problem.hidden = value === null;
      problemText.textContent = value?.text ?? "";
      problemAction.hidden = value?.action !== "new-conversation";
      onProblemAction = onNewConversation;
    },
    scrollToEnd(force = false) {
      if (force || pinned) scroller.scrollTop = scroller.scrollHeight;
    },
  };
}
