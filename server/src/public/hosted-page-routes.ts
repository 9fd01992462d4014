import { readFile } from "node:fs/promises";
import path from "node:path";
import { ANY_ORIGIN, type PublicChatSettings } from "@waddle/protocol";
import { Router, type Response } from "express";
import { z } from "zod";

/** What serving the page needs to know of a chat (the store's `StoredPublicChat` fits). */
export interface HostedChat {
  publicId: string;
  publishableKey: string;
  settings: Pick<PublicChatSettings, "enabled" | "allowedOrigins" | "theme">;
}

export interface HostedPageOptions {
  /** The built designer (`designer/dist`): `chat.html`, its assets and `embed.js` are built into it. */
  designerDir: string | undefined;
  /** The chat of a public id, undefined when there is none or its agent is gone. */
  findChat(publicId: string): Promise<HostedChat | undefined>;
}

/** Public ids are made by the server (`pub_` and hex): anything else is no chat, without a lookup. */
const PublicIdParam = z.object({ publicId: z.string().regex(/^pub_[0-9a-f]{1,64}$/) });

const NOT_AVAILABLE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chat not available</title></head>
<body style="font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:20vh auto 0;padding:0 1rem;text-align:center">
<h1 style="font-size:20px">Chat not available</h1>
<p>There is no chat at this address, or it has been turned off.</p></body></html>`;

const escapeAttribute = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The page's own sources only; the logo's origin for images; framed only by the allowed origins. */
export function getHostedPagePolicy(settings: HostedChat["settings"]): string {
  const images = ["'self'", "data:"];
  if (settings.theme?.logoUrl) images.push(new URL(settings.theme.logoUrl).origin);
  const ancestors = settings.allowedOrigins.includes(ANY_ORIGIN)
    ? ["*"]
    : // 'self': the designer's preview of the page, on this server
      ["'self'", ...settings.allowedOrigins];
  return [
    "default-src 'self'",
    "base-uri 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${images.join(" ")}`,
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors.join(" ")}`,
  ].join("; ");
}

function sendNotAvailable(response: Response): void {
  response.status(404).setHeader("cache-control", "no-store");
  response.type("html").send(NOT_AVAILABLE);
}

/**
 * The hosted chat page and the embed script (issue 33):
 * - `GET /chat/:publicId`: the built `chat.html` with the chat's public id and publishable key written into
 *   its meta tags, under a CSP whose `frame-ancestors` lists the chat's allowed origins (and this server,
 *   for the designer's preview). 404 for an unknown or disabled chat.
 * - `GET /embed.js`: the stable script other sites include; cached briefly and revalidated (its name never
 *   changes), and loadable from any origin (what it may reach is the public routes' CORS to decide).
 */
export function createHostedPageRoutes(options: HostedPageOptions): Router {
  const router = Router();
  const chatPage = options.designerDir ? path.join(options.designerDir, "chat.html") : undefined;
  const embedScript = options.designerDir ? path.join(options.designerDir, "embed.js") : undefined;

  router.get("/chat/:publicId", async (request, response) => {
    const params = PublicIdParam.safeParse(request.params);
    const chat = params.success ? await options.findChat(params.data.publicId) : undefined;
    if (!chat?.settings.enabled) return sendNotAvailable(response);
    const html = chatPage ? await readFile(chatPage, "utf8").catch(() => undefined) : undefined;
    if (html === undefined) {
      response.status(503).setHeader("cache-control", "no-store");
      response.type("text").send("The chat page has not been built: run `npm run build` on the server.");
      return;
    }
    const meta =
      `<meta name="waddle-public-id" content="${escapeAttribute(chat.publicId)}" />` +
      `<meta name="waddle-public-key" content="${escapeAttribute(chat.publishableKey)}" />`;
    response.setHeader("content-security-policy", getHostedPagePolicy(chat.settings));
    // frame-ancestors decides who may frame the page; X-Frame-Options would forbid every other site.
    response.removeHeader("x-frame-options");
    // The key in the page changes when it is rotated, and the settings when they are saved.
    response.setHeader("cache-control", "no-store");
    response.type("html").send(html.replace("</head>", `${meta}</head>`));
  });

  router.get("/embed.js", (_request, response, next) => {
    if (!embedScript) return next();
    response.setHeader("cross-origin-resource-policy", "cross-origin");
    response.sendFile(
      embedScript,
      {
        headers: {
          "content-type": "text/javascript; charset=utf-8",
          "cache-control": "public, max-age=300, stale-while-revalidate=86400",
        },
      },
      (error) => {
        if (!error || response.headersSent) return;
        response.status(404).setHeader("cache-control", "no-store");
        response.type("text").send("embed.js has not been built: run `npm run build` on the server.");
      },
    );
  });

  return router;
}
