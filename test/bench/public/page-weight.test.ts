import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { getPageAssets, getPageWeight } from "./page-weight.js";

const HTML = `<!doctype html><html><head>
<link rel="icon" href="data:image/svg+xml,%3Csvg%3E" />
<script type="module" crossorigin src="/assets/chat-abc.js"></script>
<link rel="modulepreload" crossorigin href="/assets/shared-def.js">
<link rel="stylesheet" crossorigin href="/assets/chat-ghi.css">
<script src="https://cdn.example.com/other.js"></script>
<script type="module" src="/assets/chat-abc.js"></script>
</head><body></body></html>`;

const dir = mkdtempSync(path.join(tmpdir(), "page-weight-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("getPageAssets", () => {
  it("lists the page's own scripts, module preloads and stylesheets once each, in order", () => {
    expect(getPageAssets(HTML)).toEqual([
      { href: "/assets/chat-abc.js", kind: "js" },
      { href: "/assets/shared-def.js", kind: "js" },
      { href: "/assets/chat-ghi.css", kind: "css" },
    ]);
  });
});

describe("getPageWeight", () => {
  it("adds up the referenced files as built and gzipped", () => {
    mkdirSync(path.join(dir, "assets"));
    const js = "console.log('chat');".repeat(50);
    writeFileSync(path.join(dir, "chat.html"), HTML);
    writeFileSync(path.join(dir, "assets/chat-abc.js"), js);
    writeFileSync(path.join(dir, "assets/shared-def.js"), "export {};");
    writeFileSync(path.join(dir, "assets/chat-ghi.css"), "body{margin:0}");
    writeFileSync(path.join(dir, "assets/unreferenced.js"), "x".repeat(10_000));
    const weight = getPageWeight(dir, "chat.html");
    expect(weight.js.files).toBe(2);
    expect(weight.js.rawBytes).toBe(js.length + "export {};".length);
    expect(weight.js.gzipBytes).toBe(gzipSync(js).length + gzipSync("export {};").length);
    expect(weight.css).toEqual({ files: 1, rawBytes: 14, gzipBytes: gzipSync("body{margin:0}").length });
    expect(weight.html.rawBytes).toBe(Buffer.byteLength(HTML));
  });
});
