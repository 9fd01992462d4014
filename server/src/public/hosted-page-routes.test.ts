import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecurityHeaders } from "../http/security.js";
import { createHostedPageRoutes, getHostedPagePolicy, type HostedChat } from "./hosted-page-routes.js";

const designerDir = mkdtempSync(path.join(tmpdir(), "waddle-hosted-page-"));
const chats = new Map<string, HostedChat>();
let base = "";
let close = () => undefined as void;

const chat = (publicId: string, settings: Partial<HostedChat["settings"]> = {}): HostedChat => ({
  publicId,
  publishableKey: `wpk_key0000000${publicId.slice(-1)}_${"k".repeat(43)}`,
  settings: { enabled: true, allowedOrigins: ["https://shop.example"], ...settings },
});

beforeAll(async () => {
  writeFileSync(
    path.join(designerDir, "chat.html"),
    '<!doctype html><html><head><title>Chat</title></head><body><div id="chat-root"></div></body></html>',
  );
  writeFileSync(path.join(designerDir, "embed.js"), "(function(){console.log('embed')})();");
  chats.set("pub_a1", chat("pub_a1"));
  chats.set("pub_b2", chat("pub_b2", { enabled: false }));
  chats.set("pub_c3", chat("pub_c3", { allowedOrigins: ["*"] }));
  chats.set(
    "pub_d4",
    chat("pub_d4", {
      allowedOrigins: ["https://a.example", "http://localhost:5173"],
      theme: { logoUrl: "https://cdn.example/logo.png" },
    }),
  );
  const app = express();
  app.use(createSecurityHeaders());
  app.use(createHostedPageRoutes({ designerDir, findChat: async (id) => chats.get(id) }));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => void server.close();
});
afterAll(() => {
  close();
  rmSync(designerDir, { recursive: true, force: true });
});

describe("GET /chat/:publicId", () => {
  it("serves the page with the chat's id and key, framed only by its allowed origins and this server", async () => {
    const response = await fetch(`${base}/chat/pub_a1`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<meta name="waddle-public-id" content="pub_a1" />');
    expect(html).toContain(
      `<meta name="waddle-public-key" content="${chats.get("pub_a1")!.publishableKey}" />`,
    );
    expect(html.indexOf("waddle-public-key")).toBeLessThan(html.indexOf("</head>"));
    const policy = response.headers.get("content-security-policy")!;
    expect(policy).toContain("frame-ancestors 'self' https://shop.example");
    expect(policy).not.toContain("frame-ancestors 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(response.headers.get("x-frame-options")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("is 404 for a disabled chat, an unknown id and an id that is no public id", async () => {
    for (const id of ["pub_b2", "pub_ffff", "agent-id", "pub_a1%22%3E"]) {
      const response = await fetch(`${base}/chat/${id}`);
      expect(response.status, id).toBe(404);
      const html = await response.text();
      expect(html).toContain("Chat not available");
      expect(html).not.toContain("waddle-public-key");
      // the server's own policy: this page frames nowhere
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    }
  });

  it("lets any site frame a chat whose owner allowed any origin", async () => {
    const response = await fetch(`${base}/chat/pub_c3`);
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors *");
  });
});

describe("getHostedPagePolicy", () => {
  it("lists exactly the allowed origins (and this server) as ancestors, and the logo's origin for images", () => {
    const policy = getHostedPagePolicy(chats.get("pub_d4")!.settings);
    expect(policy).toMatch(/; frame-ancestors 'self' https:\/\/a\.example http:\/\/localhost:5173$/);
    expect(policy).toContain("img-src 'self' data: https://cdn.example;");
    expect(getHostedPagePolicy({ enabled: true, allowedOrigins: [] })).toMatch(/; frame-ancestors 'self'$/);
  });
});

describe("GET /embed.js", () => {
  it("serves the script at its stable name, loadable from other origins and cached briefly", async () => {
    const response = await fetch(`${base}/embed.js`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("embed");
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=300, stale-while-revalidate=86400");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    const etag = response.headers.get("etag");
    expect(etag).toBeTruthy();
    // (fetch adds `cache-control: no-cache` to a conditional request unless it has its own)
    const again = await fetch(`${base}/embed.js`, {
      headers: { "if-none-match": etag!, "cache-control": "max-age=0" },
    });
    expect(again.status).toBe(304);
  });
});
