import { getAccentText } from "../public-chat/get-accent-text.js";
import { getChatPageUrl, type EmbedOptions } from "./read-embed-options.js";

const CSS = `
:host { all: initial; }
* { box-sizing: border-box; }
.launcher {
  position: fixed; bottom: 20px; z-index: 2147483000;
  display: inline-flex; align-items: center; gap: 8px;
  min-height: 48px; padding: 0 18px 0 14px; border: 0; border-radius: 999px;
  background: var(--accent); color: var(--accent-text);
  font: 600 15px/1 ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif;
  box-shadow: 0 6px 20px rgba(15, 18, 25, .22), 0 2px 6px rgba(15, 18, 25, .12);
  cursor: pointer;
}
.launcher:hover { filter: brightness(1.06); }
.launcher:focus-visible { outline: 3px solid var(--accent); outline-offset: 3px; }
.launcher svg { flex: none; }
.right .launcher { right: 20px; } .left .launcher { left: 20px; }
.panel {
  position: fixed; bottom: 84px; z-index: 2147483001;
  width: 400px; height: min(640px, calc(100vh - 112px));
  border-radius: 16px; overflow: hidden; background: #fff;
  box-shadow: 0 16px 48px rgba(15, 18, 25, .28), 0 2px 8px rgba(15, 18, 25, .12);
}
.right .panel { right: 20px; } .left .panel { left: 20px; }
.panel[hidden] { display: none; }
iframe { display: block; width: 100%; height: 100%; border: 0; color-scheme: normal; }
@media (prefers-color-scheme: dark) { .panel { background: #0f1115; } }
@media (max-width: 480px), (max-height: 520px) {
  .panel { inset: 0; width: 100%; height: 100%; border-radius: 0; }
  .open .launcher { display: none; }
}
`;

const CHAT_ICON = ["M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z"];
const CLOSE_ICON = ["M6 6l12 12", "M18 6L6 18"];

/** A 20px stroke icon, built with DOM calls (a host page may enforce Trusted Types: no innerHTML). */
function createIcon(paths: readonly string[]): SVGSVGElement {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  for (const [name, value] of Object.entries({
    width: "20",
    height: "20",
    viewBox: "0 0 24 24",
    fill: "none",
    stroke: "currentColor",
    "stroke-width": "2",
    "stroke-linecap": "round",
    "stroke-linejoin": "round",
    "aria-hidden": "true",
    focusable: "false",
  }))
    svg.setAttribute(name, value);
  for (const d of paths) {
    const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  return svg;
}

/** The widget's styles: a constructed sheet where the browser has them (a host page's CSP allows it). */
function addStyles(root: ShadowRoot): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];
  } catch {
    const style = document.createElement("style");
    style.textContent = CSS;
    root.append(style);
  }
}

/**
 * Mounts the chat button and its panel in a shadow root (the host page's styles stay out, ours stay in).
 * The panel frames the hosted page, loaded at the first open and kept while closed so the conversation
 * goes on; Escape (here or inside the frame) closes it and gives the focus back to the button.
 */
export function mountEmbedWidget(options: EmbedOptions & { title: string; themeAccent: string | null }) {
  const accent = options.accent ?? options.themeAccent ?? "#4f46e5";
  const host = document.createElement("div");
  host.setAttribute("data-waddle-chat", options.publicId);
  const root = host.attachShadow({ mode: "open" });
  addStyles(root);
  const wrapper = document.createElement("div");
  wrapper.className = options.position === "bottom-left" ? "left" : "right";
  wrapper.style.setProperty("--accent", accent);
  wrapper.style.setProperty("--accent-text", getAccentText(accent));

  const panelId = `waddle-chat-panel-${options.publicId}`;
  const launcher = document.createElement("button");
  launcher.type = "button";
  launcher.className = "launcher";
  launcher.setAttribute("aria-expanded", "false");
  launcher.setAttribute("aria-controls", panelId);
  launcher.setAttribute("data-testid", "waddle-chat-launcher");
  const label = document.createElement("span");
  const setLauncher = (open: boolean) => {
    label.textContent = open ? "Close" : options.openText;
    launcher.replaceChildren(createIcon(open ? CLOSE_ICON : CHAT_ICON), label);
    launcher.setAttribute("aria-label", open ? `Close the chat: ${options.title}` : options.openText);
    launcher.setAttribute("aria-expanded", String(open));
  };
  setLauncher(false);

  const panel = document.createElement("div");
  panel.className = "panel";
  panel.id = panelId;
  panel.hidden = true;
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-label", options.title);
  panel.setAttribute("data-testid", "waddle-chat-panel");
  let frame: HTMLIFrameElement | null = null;
  const chatOrigin = options.origin;

  const focusChat = () => {
    frame?.focus();
    frame?.contentWindow?.postMessage({ type: "waddle-chat:focus" }, chatOrigin);
  };
  const open = () => {
    if (!frame) {
      frame = document.createElement("iframe");
      frame.src = getChatPageUrl(options);
      frame.title = options.title;
      frame.allow = "clipboard-write";
      frame.referrerPolicy = "strict-origin";
      frame.addEventListener("load", focusChat);
      panel.append(frame);
    }
    panel.hidden = false;
    wrapper.classList.add("open");
    setLauncher(true);
    focusChat();
  };
  const close = () => {
    if (panel.hidden) return;
    panel.hidden = true;
    wrapper.classList.remove("open");
    setLauncher(false);
    launcher.focus();
  };
  launcher.addEventListener("click", () => (panel.hidden ? open() : close()));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !panel.hidden) close();
  });
  window.addEventListener("message", (event) => {
    if (event.origin !== chatOrigin || frame === null || event.source !== frame.contentWindow) return;
    const data = event.data as { type?: unknown } | null;
    if (data?.type === "waddle-chat:close") close();
  });

  wrapper.append(panel, launcher);
  root.append(wrapper);
  document.body.append(host);
  return { open, close };
}
