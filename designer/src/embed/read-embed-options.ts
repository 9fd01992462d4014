/** What a page's `<script src=".../embed.js" data-…>` asks for. */
export interface EmbedOptions {
  publicId: string;
  /**
   * `data-public-key`, optional (snippets made before the config route took the public id alone carry it):
   * sent with the config request, where a rotated key is refused.
   */
  publicKey: string | null;
  /** The Waddle server: the origin `embed.js` was loaded from. */
  origin: string;
  position: "bottom-right" | "bottom-left";
  /** `data-accent`, a hex colour; else the chat's own theme colour. */
  accent: string | null;
  /** The button's text (`data-open-text`). */
  openText: string;
}

const DEFAULT_OPEN_TEXT = "Chat with us";

/**
 * The embed's options from its script element's `src` and `data-*` attributes, or a reason it cannot run
 * (said once in the console, for the person who pasted the snippet). Pure, for tests.
 */
export function readEmbedOptions(input: {
  src: string;
  baseUrl: string;
  data: Readonly<Record<string, string | undefined>>;
}): EmbedOptions | { problem: string } {
  const publicId = (input.data.publicId ?? "").trim();
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(publicId)) {
    return { problem: "the script needs data-public-id, the chat's public id from Publish in the designer" };
  }
  let origin: string;
  try {
    const url = new URL(input.src, input.baseUrl);
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(url.protocol);
    origin = url.origin;
  } catch {
    return { problem: "the script's src is not an http(s) address of the Waddle server" };
  }
  const publicKey = (input.data.publicKey ?? "").trim();
  const accent = (input.data.accent ?? "").trim();
  const openText = (input.data.openText ?? "").replace(/\s+/g, " ").trim().slice(0, 40);
  return {
    publicId,
    publicKey: /^wpk_[A-Za-z0-9_-]{1,200}$/.test(publicKey) ? publicKey : null,
    origin,
    position: input.data.position === "bottom-left" ? "bottom-left" : "bottom-right",
    accent: /^#[0-9a-fA-F]{6}$/.test(accent) ? accent : null,
    openText: openText || DEFAULT_OPEN_TEXT,
  };
}

/** The hosted page the panel frames. */
export function getChatPageUrl(options: Pick<EmbedOptions, "origin" | "publicId">): string {
  return `${options.origin}/chat/${encodeURIComponent(options.publicId)}?embed=1`;
}
