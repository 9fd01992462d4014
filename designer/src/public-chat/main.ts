import "./chat.css";
import { ChatApiError, createChatApi } from "./chat-api.js";
import { startChatApp } from "./chat-app.js";
import { createElement } from "./create-element.js";
import { describeChatError } from "./describe-chat-error.js";
import { getPageSettings } from "./get-page-settings.js";
import { createVisitorStorage, getLocalStorage } from "./visitor-storage.js";

/**
 * The hosted chat page (`/chat/:publicId`), its own small bundle: no React, no designer code. The server
 * writes the public id and publishable key into the page's meta tags; everything else comes from the
 * public routes.
 */
async function main(): Promise<void> {
  const mount = document.getElementById("chat-root");
  if (!mount) return;
  const settings = getPageSettings(document, window.location);
  const fail = (text: string) =>
    mount.replaceChildren(
      createElement("div", { class: "chat-unavailable", role: "alert" }, [
        createElement("h1", {}, ["Chat unavailable"]),
        createElement("p", {}, [text]),
      ]),
    );
  if (!settings) return fail("This page does not name a chat. Check the link you followed.");
  const embedded = settings.embedded && window.parent !== window;
  // The outer page never sees a key pressed inside the frame: Escape here asks it to close the panel.
  // The message carries nothing but its type, so any parent may hear it.
  const closePanel = () => window.parent.postMessage({ type: "waddle-chat:close" }, "*");
  // The embed asks for the focus each time it opens the panel, maybe before the chat is ready.
  let focus: (() => void) | null = null;
  let focusAsked = false;
  if (embedded) {
    document.documentElement.classList.add("is-embedded");
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !event.defaultPrevented) closePanel();
    });
    window.addEventListener("message", (event) => {
      const data = event.data as { type?: unknown } | null;
      if (event.source !== window.parent || data?.type !== "waddle-chat:focus") return;
      if (focus) focus();
      else focusAsked = true;
    });
  }
  const api = createChatApi({ publicId: settings.publicId, publicKey: settings.publicKey });
  let config;
  try {
    config = await api.getConfig();
  } catch (error) {
    return fail(
      error instanceof ChatApiError && error.status === 404
        ? "This chat is not available: it may have been turned off."
        : describeChatError(error).text,
    );
  }
  focus = startChatApp({
    mount,
    api,
    config,
    storage: createVisitorStorage(getLocalStorage(), settings.publicId),
    onClose: embedded ? closePanel : null,
  }).focus;
  if (focusAsked) focus();
}

void main();
