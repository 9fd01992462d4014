import { mountEmbedWidget } from "./embed-widget.js";
import { readEmbedOptions } from "./read-embed-options.js";

/**
 * `embed.js`: `<script src="https://<waddle>/embed.js" data-public-id="…" async>`
 * adds a chat button that opens the chat in a panel. Before it shows anything it asks the chat's public settings across
 * origins: a page whose origin the chat does not allow gets no CORS answer, so no button (and the hosted
 * page would refuse to be framed there anyway: `frame-ancestors`).
 */
function start(): void {
  const script =
    (document.currentScript as HTMLScriptElement | null) ??
    document.querySelector<HTMLScriptElement>('script[src*="/embed.js"][data-public-id]');
  if (!script) return;
  const options = readEmbedOptions({
    src: script.src,
    baseUrl: document.baseURI,
    data: { ...script.dataset },
  });
  if ("problem" in options) {
    console.warn(`Waddle chat: ${options.problem}.`);
    return;
  }
  const started = ((window as { __waddleChats?: Set<string> }).__waddleChats ??= new Set());
  if (started.has(options.publicId)) return; // the snippet pasted twice
  started.add(options.publicId);
  const url = `${options.origin}/public/${encodeURIComponent(options.publicId)}/config`;
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.publicKey) headers["x-waddle-public-key"] = options.publicKey;
  fetch(url, { mode: "cors", credentials: "omit", headers })
    .then(async (response) => {
      if (!response.ok) throw new Error(`the chat answered ${response.status}`);
      const config = (await response.json()) as { title?: unknown; theme?: { accent?: unknown } };
      const mount = () =>
        mountEmbedWidget({
          ...options,
          title: typeof config.title === "string" ? config.title : "Chat",
          themeAccent: typeof config.theme?.accent === "string" ? config.theme.accent : null,
        });
      if (document.body) mount();
      else document.addEventListener("DOMContentLoaded", mount, { once: true });
    })
    .catch((error: unknown) => {
      console.warn(
        `Waddle chat: not shown (${error instanceof Error ? error.message : String(error)}). Is this page's origin, ${window.location.origin}, among the chat's allowed origins?`,
      );
    });
}

start();
