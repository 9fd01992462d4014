import DOMPurify from "dompurify";
import { markdownToHtml } from "./markdown-to-html.js";

/** What Markdown renders to, and nothing else: no media, no forms (task-list boxes too), no styles. */
const ALLOWED_TAGS = [
  "p",
  "br",
  "hr",
  "strong",
  "em",
  "del",
  "code",
  "pre",
  "blockquote",
  "ul",
  "ol",
  "li",
  "a",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
];
const ALLOWED_ATTR = ["href", "title", "class", "start", "align"];

let hooked = false;

/** Links open in a new tab, without the page as opener or referrer; a class only names a code language. */
function addHooks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName === "A") {
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer nofollow");
    }
    const className = node.getAttribute("class");
    if (className !== null && !/^language-[\w+-]+$/.test(className)) node.removeAttribute("class");
  });
}

/**
 * An answer's Markdown as DOM nodes ready to insert: rendered with raw HTML escaped (`markdown-to-html.ts`),
 * then sanitized by DOMPurify with an allow-list of Markdown's own tags and only http(s)/mailto links, so
 * that nothing the model writes can run, load or submit anything. Never goes through `innerHTML`.
 */
export function renderAnswer(markdown: string): DocumentFragment {
  addHooks();
  return DOMPurify.sanitize(markdownToHtml(markdown), {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOWED_URI_REGEXP: /^(?:https?|mailto):/i,
    RETURN_DOM_FRAGMENT: true,
  });
}
