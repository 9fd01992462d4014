/** Where a published chat can be reached: the hosted page and the snippet a site pastes. */
export interface PublishedChatLinks {
  /** The hosted page, to share as a link. */
  shareLink: string;
  /** `<script src=".../embed.js" data-public-id=… async></script>`. */
  snippet: string;
}

const attribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/**
 * The share link and embed snippet of a chat on this server. The snippet names the chat by its public id
 * only: the hosted page it opens carries the current publishable key, so a snippet outlives a Rotate.
 */
export function getPublishedChatLinks(options: {
  origin: string;
  publicId: string;
  position?: "bottom-right" | "bottom-left";
  openText?: string;
}): PublishedChatLinks {
  const extra = [
    options.position && options.position !== "bottom-right" ? ` data-position="${options.position}"` : "",
    options.openText ? ` data-open-text="${attribute(options.openText)}"` : "",
  ].join("");
  return {
    shareLink: `${options.origin}/chat/${encodeURIComponent(options.publicId)}`,
    snippet:
      `<script src="${options.origin}/embed.js" data-public-id="${attribute(options.publicId)}"` +
      `${extra} async></script>`,
  };
}
