import { createElement, createIcon, ICONS } from "./create-element.js";

/** Copies text: the Clipboard API, else a selected textarea (an iframe without clipboard permission). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = createElement("textarea", { class: "chat-copy-buffer", "aria-hidden": "true" });
    area.value = text;
    document.body.append(area);
    area.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

function createCopyButton(getText: () => string, label: string): HTMLButtonElement {
  const text = createElement("span", {}, ["Copy"]);
  const button = createElement(
    "button",
    { type: "button", class: "chat-copy", "aria-label": label, "data-testid": "chat-copy" },
    [createIcon(ICONS.copy, 14), text],
  );
  button.addEventListener("click", () => {
    void copyText(getText()).then((copied) => {
      text.textContent = copied ? "Copied" : "Select and copy";
      window.setTimeout(() => (text.textContent = "Copy"), 2_000);
    });
  });
  return button;
}

/** Puts each code block of a rendered answer in a frame with its language and a Copy button. */
export function addCopyButtons(container: HTMLElement): void {
  for (const pre of container.querySelectorAll("pre")) {
    const code = pre.querySelector("code");
    const language = /language-([\w+-]+)/.exec(code?.className ?? "")?.[1] ?? "";
    const frame = createElement("div", { class: "chat-code" }, [
      createElement("div", { class: "chat-code-head" }, [
        createElement("span", { class: "chat-code-language" }, [language || "code"]),
        createCopyButton(
          () => (code ?? pre).textContent ?? "",
          language ? `Copy the ${language} code` : "Copy the code",
        ),
      ]),
    ]);
    pre.replaceWith(frame);
    pre.tabIndex = 0;
    pre.setAttribute("aria-label", language ? `${language} code` : "Code");
    frame.append(pre);
  }
}
