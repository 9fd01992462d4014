/** What the page needs to know before its first request. */
export interface PageSettings {
  publicId: string;
  publicKey: string;
  /** Inside the embed's frame (`?embed=1`): compact, and Escape asks the outer page to close it. */
  embedded: boolean;
}

const readMeta = (document: Document, name: string) =>
  document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim() ?? "";

/**
 * The public id and publishable key the server wrote into the page (`waddle-public-id`,
 * `waddle-public-key`); the id falls back to the address, `/chat/:publicId`. Null when there is no id.
 */
export function getPageSettings(
  document: Document,
  location: Pick<Location, "pathname" | "search">,
): PageSettings | null {
  const fromPath = /^\/chat\/([^/]+)\/?$/.exec(location.pathname)?.[1];
  const publicId = readMeta(document, "waddle-public-id") || (fromPath ? decodeURIComponent(fromPath) : "");
  if (publicId === "") return null;
  return {
    publicId,
    publicKey: readMeta(document, "waddle-public-key"),
    embedded: new URLSearchParams(location.search).get("embed") === "1",
  };
}
