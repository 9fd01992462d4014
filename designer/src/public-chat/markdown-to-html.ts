import { Marked, type Tokens } from "marked";

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text as HTML text: every character that could open a tag, an entity or end an attribute escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/**
 * The link target a visitor may follow: an absolute http(s) or mailto URL, as the URL parser reads it
 * (so `JaVaScRiPt:`, `java\tscript:` and entity tricks are judged as a browser would), else null.
 * Relative links are dropped too: on this page they would point into the Waddle server.
 */
export function getSafeHref(href: string): string | null {
  try {
    const url = new URL(href.trim());
    return SAFE_PROTOCOLS.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Markdown as the chat page shows an answer. The model's text is untrusted, so the renderer is the first of
 * two walls (DOMPurify, `sanitize-answer.ts`, is the second): raw HTML, inline or block, is shown as the
 * text it is; links keep only safe targets (the text stays, unlinked, otherwise); images are never loaded
 * (a model could leak the conversation through an image URL): they become links to the image.
 */
const answerMarked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      const safe = getSafeHref(href);
      if (safe === null) return inner;
      const titleAttribute = title ? ` title="${escapeHtml(title)}"` : "";
      return `<a href="${escapeHtml(safe)}"${titleAttribute}>${inner}</a>`;
    },
    image({ href, text }: Tokens.Image) {
      const label = escapeHtml(text || "image");
      const safe = getSafeHref(href);
      return safe === null ? label : `<a href="${escapeHtml(safe)}">${label} (image)</a>`;
    },
  },
});

/** An answer's Markdown as HTML text, raw HTML escaped and unsafe links dropped. */
export function markdownToHtml(markdown: string): string {
  return answerMarked.parse(markdown, { async: false });
}
