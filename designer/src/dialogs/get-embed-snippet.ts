/** Where a published chat can be reached: the hosted page and the snippet a site pastes. */
export interface PublishedChatLinks {
  /** The hosted page, to share as a link. */
  shareLink: string;
  /** `<script src=".../embed.js" data-public-id=… data-public-key=… async></script>`. */
  snippet: string;
}

const attribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

/**
 * The share link and embed snippet of a chat on this server. The snippet holds the publishable key (the
 * public routes want it; it is meant for web pages): after Rotate, sites paste the new snippet.
 */
export function getPublishedChatLinks(options: {
  origin: string;
  publicId: string;
  publishableKey: string;
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
      ` data-public-key="${attribute(options.publishableKey)}"${extra} async></script>`,
  };
}
