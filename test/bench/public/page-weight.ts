import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/** A file a built page loads before it runs: its path as the HTML names it, and its kind. */
export interface PageAsset {
  href: string;
  kind: "js" | "css";
}

const ATTRIBUTES = /([a-zA-Z-]+)\s*=\s*"([^"]*)"/g;

function readAttributes(tag: string): Map<string, string> {
  return new Map([...tag.matchAll(ATTRIBUTES)].map((match) => [match[1]!.toLowerCase(), match[2]!]));
}

/**
 * The scripts, module preloads and stylesheets a built HTML page references with a same-server path
 * (what vite writes into `chat.html` and `index.html`), in document order, each once.
 */
export function getPageAssets(html: string): PageAsset[] {
  const assets: PageAsset[] = [];
  for (const match of html.matchAll(/<(script|link)\b[^>]*>/gi)) {
    const tag = match[0];
    const attributes = readAttributes(tag);
    const rel = attributes.get("rel")?.toLowerCase();
    const href = match[1]!.toLowerCase() === "script" ? attributes.get("src") : attributes.get("href");
    if (href === undefined || !href.startsWith("/")) continue;
    const kind =
      match[1]!.toLowerCase() === "script" || rel === "modulepreload"
        ? "js"
        : rel === "stylesheet"
          ? "css"
          : undefined;
    if (kind !== undefined && !assets.some((asset) => asset.href === href)) assets.push({ href, kind });
  }
  return assets;
}

/** Bytes of one kind of asset, as built and gzipped (zlib's default level 6, as most servers use). */
export interface AssetWeight {
  files: number;
  rawBytes: number;
  gzipBytes: number;
}

export interface PageWeight {
  html: AssetWeight;
  js: AssetWeight;
  css: AssetWeight;
  /** The files counted, as the HTML names them. */
  assets: string[];
}

const weigh = (buffers: readonly Buffer[]): AssetWeight => ({
  files: buffers.length,
  rawBytes: buffers.reduce((total, buffer) => total + buffer.length, 0),
  gzipBytes: buffers.reduce((total, buffer) => total + gzipSync(buffer).length, 0),
});

/** Weighs a built page (`chat.html`, `index.html`) in `dir` and the JS and CSS it references. */
export function getPageWeight(dir: string, page: string): PageWeight {
  const html = readFileSync(path.join(dir, page));
  const assets = getPageAssets(html.toString("utf8"));
  const read = (kind: PageAsset["kind"]) =>
    assets.filter((asset) => asset.kind === kind).map((asset) => readFileSync(path.join(dir, asset.href)));
  return {
    html: weigh([html]),
    js: weigh(read("js")),
    css: weigh(read("css")),
    assets: assets.map((asset) => asset.href),
  };
}
