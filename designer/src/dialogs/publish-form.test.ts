import type { PublicChat } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { getOriginProblem, getPublishForm, getPublishSettings } from "./publish-form.js";
import { getPublishedChatLinks } from "./get-embed-snippet.js";

const form = (patch: Partial<ReturnType<typeof getPublishForm>> = {}) => ({
  ...getPublishForm(null, "Support triage"),
  ...patch,
});

describe("getPublishSettings", () => {
  it("turns the typed form into the settings PUT takes", () => {
    const result = getPublishSettings(
      form({
        title: "  Help  ",
        welcome: "Hi! Ask me anything.",
        starters: "Where is my order?\n\n  Refund an order  \n",
        allowedOrigins: "https://shop.example\nhttp://localhost:5173",
        showSteps: "full",
        rateLimit: "10/min",
        maxTurns: "20",
        accent: "#0f766e",
      }),
    );
    expect(result).toEqual({
      ok: true,
      settings: {
        enabled: true,
        title: "Help",
        welcome: "Hi! Ask me anything.",
        starters: ["Where is my order?", "Refund an order"],
        allowedOrigins: ["https://shop.example", "http://localhost:5173"],
        showSteps: "full",
        rateLimit: "10/min",
        maxTurns: 20,
        theme: { accent: "#0f766e" },
      },
    });
  });

  it("names each field to fix", () => {
    const result = getPublishSettings(
      form({ title: " ", rateLimit: "lots", maxTurns: "0", accent: "teal", logoUrl: "ftp://x" }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual([
      "accent",
      "logoUrl",
      "maxTurns",
      "rateLimit",
      "title",
    ]);
  });

  it("refuses an entry that is no origin, naming it", () => {
    const result = getPublishSettings(form({ allowedOrigins: "https://shop.example/page" }));
    expect(result).toEqual({
      ok: false,
      errors: {
        allowedOrigins:
          '"https://shop.example/page" is not an origin (no path, query or trailing slash): write https://shop.example.',
      },
    });
  });

  it("takes * only with the explicit confirmation", () => {
    expect(getPublishSettings(form({ allowedOrigins: "*" }))).toMatchObject({
      ok: false,
      errors: { allowAnyOrigin: expect.stringContaining("any site") },
    });
    expect(getPublishSettings(form({ allowedOrigins: "*", allowAnyOrigin: true }))).toMatchObject({
      ok: true,
      settings: { allowedOrigins: ["*"], allowAnyOrigin: true },
    });
  });
});

describe("getPublishForm", () => {
  it("shows a saved chat as it is, and saves it back unchanged", () => {
    const chat: PublicChat = {
      agentId: "support",
      publicId: "pub_1",
      publishableKey: "wpk_1",
      updatedAt: "2026-01-01T00:00:00Z",
      updatedBy: "admin",
      enabled: false,
      channel: "staging",
      title: "Support",
      starters: ["A", "B"],
      allowedOrigins: ["https://a.example"],
      showSteps: "none",
      chatRateLimit: "100/min",
      theme: { logoUrl: "https://a.example/logo.png" },
    };
    const { agentId, publicId, publishableKey, updatedAt, updatedBy, ...settings } = chat;
    void [agentId, publicId, publishableKey, updatedAt, updatedBy];
    expect(getPublishSettings(getPublishForm(chat, "ignored"))).toEqual({ ok: true, settings });
  });
});

describe("getOriginProblem", () => {
  it("takes origins as browsers send them", () => {
    expect(getOriginProblem("https://example.com")).toBeNull();
    expect(getOriginProblem("http://localhost:5173")).toBeNull();
    expect(getOriginProblem("*")).toBeNull();
    expect(getOriginProblem("example.com")).toMatch(/not an origin/);
    expect(getOriginProblem("https://example.com/")).toMatch(/write https:\/\/example\.com/);
    expect(getOriginProblem("ftp://example.com")).toMatch(/not an http/);
  });
});

describe("getPublishedChatLinks", () => {
  it("gives the share link and a snippet with the public id (never the key) and only the choices made", () => {
    expect(
      getPublishedChatLinks({
        origin: "https://waddle.example",
        publicId: "pub_1",
      }),
    ).toEqual({
      shareLink: "https://waddle.example/chat/pub_1",
      snippet: '<script src="https://waddle.example/embed.js" data-public-id="pub_1" async></script>',
    });
    expect(
      getPublishedChatLinks({
        origin: "https://waddle.example",
        publicId: "pub_1",
        position: "bottom-left",
        openText: 'Ask "us"',
      }).snippet,
    ).toContain('data-position="bottom-left" data-open-text="Ask &quot;us&quot;" async>');
  });
});
