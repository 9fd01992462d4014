import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { APIRequestContext, BrowserContext, Frame, Page } from "@playwright/test";
import type { PublicChat } from "@waddle/protocol";
import { expect } from "./fixtures.js";

/**
 * The outside site of the public chat specs: a second local HTTP server on a port of its own, serving pages
 * that embed the chat. One server, two origins: `http://127.0.0.1:<port>` (the chat allows it) and
 * `http://localhost:<port>` (it does not).
 */
export interface OutsideSite {
  allowedOrigin: string;
  refusedOrigin: string;
  /** Serves `html` at `path` (any later request for it). */
  setPage(path: string, html: string): void;
  close(): Promise<void>;
}

export async function startOutsideSite(): Promise<OutsideSite> {
  const pages = new Map<string, string>();
  const server: Server = createServer((request, response) => {
    const html = pages.get(new URL(request.url ?? "/", "http://site").pathname);
    if (html === undefined) {
      response.writeHead(404, { "content-type": "text/plain" }).end("no such page");
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    allowedOrigin: `http://127.0.0.1:${port}`,
    refusedOrigin: `http://localhost:${port}`,
    setPage: (path, html) => void pages.set(path, html),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A shop's page with the chat's embed snippet (as the Publish dialog gives it) and `extra` attributes. */
export function getEmbedPage(options: { waddleUrl: string; chat: PublicChat; extra?: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme shop</title><link rel="icon" href="data:,">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1f2933;background:#f6f7f9}
header{background:#0f172a;color:#fff;padding:18px 32px;font-weight:700}main{max-width:760px;margin:32px auto;padding:0 24px}
.card{background:#fff;border-radius:12px;padding:20px 24px;box-shadow:0 1px 3px rgba(0,0,0,.08);margin-bottom:16px}</style>
</head><body><header>Acme outdoor shop</header><main>
<div class="card"><h1>Trail running shoes</h1><p>Light, grippy and waterproof. Free returns for 30 days.</p></div>
<div class="card"><h2>Shipping</h2><p>Orders leave the warehouse within two working days.</p></div>
</main>
<script src="${options.waddleUrl}/embed.js" data-public-id="${options.chat.publicId}"${options.extra ?? ""} async></script>
</body></html>`;
}

/** A page that frames the hosted chat page directly (no embed.js): the chat's CSP decides. */
export function getFramingPage(src: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Framing</title><link rel="icon" href="data:,"></head>
<body><iframe id="chat" src="${src}" style="width:400px;height:600px" onload="window.framed = true"></iframe></body></html>`;
}

/** Publishes an agent's chat over REST; answers it with its id and key. */
export async function publishChat(
  request: APIRequestContext,
  agentId: string,
  settings: Record<string, unknown>,
): Promise<PublicChat> {
  const answer = await request.put(`/api/agents/${agentId}/public`, {
    data: { enabled: true, showSteps: "names", ...settings },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()) as PublicChat;
}

/**
 * Records, in every hosted chat page of the context, each length the last answer's text took: more than
 * a few means the answer was seen growing, piece by piece, as it streamed.
 */
export async function recordAnswerGrowth(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    if (!window.location.pathname.startsWith("/chat/")) return;
    const lengths: number[] = [];
    (window as unknown as { __answerLengths: number[] }).__answerLengths = lengths;
    new MutationObserver(() => {
      const answers = document.querySelectorAll("[data-role='assistant'] .chat-answer");
      const length = answers[answers.length - 1]?.textContent?.length ?? 0;
      if (length > 0 && lengths[lengths.length - 1] !== length) lengths.push(length);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

/** The lengths `recordAnswerGrowth` saw in a chat frame, emptied for the next answer. */
export async function takeAnswerGrowth(frame: Frame): Promise<number[]> {
  return frame.evaluate(() => {
    const lengths = (window as unknown as { __answerLengths: number[] }).__answerLengths;
    return lengths.splice(0, lengths.length);
  });
}

/** True for a frame showing a hosted chat page (a frame not yet navigated has an empty URL). */
const isChatFrame = (frame: Frame) => /^https?:\/\/[^/]+\/chat\//.test(frame.url());

/** The hosted chat page's frame inside a page (the embed's panel). */
export async function getChatFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().some(isChatFrame)).toBe(true);
  return page.frames().find(isChatFrame)!;
}
