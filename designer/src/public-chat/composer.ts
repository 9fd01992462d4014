import { createElement, createIcon, ICONS } from "./create-element.js";

export interface Composer {
  element: HTMLFormElement;
  input: HTMLTextAreaElement;
  /** While an answer is on its way, Send waits (typing goes on). */
  setBusy(busy: boolean): void;
  clear(): void;
  focus(): void;
}

/** The message box: Enter sends, Shift+Enter is a new line, it grows with the text up to a few lines. */
export function createComposer(options: { maxChars: number; onSend(text: string): void }): Composer {
  const input = createElement("textarea", {
    id: "chat-input",
    class: "chat-input",
    rows: "1",
    placeholder: "Type a message…",
    "aria-label": "Message",
    "aria-describedby": "chat-input-hint",
    autocomplete: "off",
    enterkeyhint: "send",
    "data-testid": "chat-input",
  });
  const send = createElement(
    "button",
    {
      type: "submit",
      class: "chat-send",
      "aria-label": "Send",
      title: "Send (Enter)",
      "data-testid": "chat-send",
    },
    [createIcon(ICONS.send, 18)],
  );
  const count = createElement("span", { class: "chat-count", "aria-live": "polite" });
  const hint = createElement("p", { id: "chat-input-hint", class: "sr-only" }, [
    "Enter sends the message, Shift+Enter starts a new line.",
  ]);
  const element = createElement("form", { class: "chat-composer", "aria-label": "Send a message" }, [
    input,
    send,
    count,
    hint,
  ]);
  let busy = false;

  const fit = () => {
    input.style.height = "auto";
    input.style.height = `${Math.min(input.scrollHeight, 160)}px`;
    const over = input.value.length > options.maxChars;
    count.textContent = over
      ? `${input.value.length.toLocaleString("en")} / ${options.maxChars.toLocaleString("en")} characters: too long`
      : "";
    element.classList.toggle("is-over", over);
  };
  const submit = () => {
    const text = input.value.trim();
    if (busy || text === "" || text.length > options.maxChars) return;
    options.onSend(text);
  };
  input.addEventListener("input", fit);
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    submit();
  });
  element.addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
  return {
    element,
    input,
    setBusy(value) {
      busy = value;
      send.disabled = value;
      send.setAttribute("aria-label", value ? "Send (waiting for the answer)" : "Send");
    },
    clear() {
      input.value = "";
      fit();
    },
    focus() {
      input.focus();
    },
  };
}
