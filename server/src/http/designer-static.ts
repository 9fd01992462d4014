import { existsSync } from "node:fs";
import path from "node:path";
import express, { Router } from "express";

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Waddle</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2933}
code{background:#eef2f6;padding:.1rem .3rem;border-radius:4px}</style></head>
<body><h1>Waddle is running</h1>
<p>The designer has not been built yet. Build it with <code>npm run build</code> (or start with
<code>npm start</code>, which builds what is missing), then reload this page. For development with hot
reload, use <code>npm run dev</code>.</p>
<p>The API answers at <a href="/api/health"><code>/api/health</code></a>, <a href="/api/agents"><code>/api/agents</code></a>
and <a href="/api/tools"><code>/api/tools</code></a>.</p></body></html>`;

/** A path whose last segment has an extension. */
const FILE_NAME = /\.[a-z0-9]+$/i;

/**
 * Serves the built designer with an SPA fallback (any GET outside /api and /socket.io that wants HTML gets
 * index.html), or a page that says how to build it.
 */
export function createDesignerRoutes(designerDir: string | undefined): Router {
  const router = Router();
  const indexFile = designerDir ? path.join(designerDir, "index.html") : undefined;
  if (designerDir && existsSync(designerDir)) {
    router.use(express.static(designerDir, { index: false, maxAge: "1h", setHeaders: noCacheForHtml }));
  }
  router.get(/^(?!\/api\/|\/api$|\/socket\.io\/).*/, (request, response, next) => {
    // A file name (an asset of an older build) is never a page: browsers ask for scripts with `*/*`.
    if (!request.accepts("html") || FILE_NAME.test(request.path)) return next();
    if (indexFile && existsSync(indexFile)) {
      response.setHeader("cache-control", "no-cache");
      response.sendFile(indexFile);
      return;
    }
    response.status(200).type("html").send(NOT_BUILT_PAGE);
  });
  return router;
}

function noCacheForHtml(response: express.Response, file: string): void {
  if (file.endsWith(".html")) response.setHeader("cache-control", "no-cache");
}
