import { fixtureReply } from "@waddle/planner/testing";
import type { Frame, Page } from "@playwright/test";
import { expect, test } from "./fixtures.js";
import { saveScreenshot } from "./designer-helpers.js";
import { getFixtureLlm, scriptFixture } from "./llm-fixture.js";
import {
  getChatFrame,
  getEmbedPage,
  getFramingPage,
  publishChat,
  recordAnswerGrowth,
  startOutsideSite,
  takeAnswerGrowth,
  type OutsideSite,
} from "./public-chat-helpers.js";
import { createAgent, getUniqueId } from "./runs-helpers.js";

/**
 * The public chat (issue 33) in Chromium: the embed on an outside site (a second local server, allowed on
 * one origin and refused on another), the hosted page on a phone and a desktop, an answer that tries to run
 * script, a turn that waits for a team member, a visitor's rating in History, and Publish in the designer.
 * Agents run on the local OpenAI-compatible fixture, whose replies each test scripts.
 */

let site: OutsideSite;
test.beforeAll(async () => {
  site = await startOutsideSite();
});
test.afterAll(async () => {
  await site.close();
});

/** Streamed slowly enough to be seen growing, quick enough not to wait long. */
const STREAM = { chunkSize: 6, chunkDelayMs: 50 };

/** An agent on the fixture with one order lookup, and one refund that needs a person's approval. */
async function createShopAgent(request: Parameters<typeof createAgent>[0], name: string): Promise<string> {
  const id = getUniqueId(name);
  await createAgent(request, {
    version: 1,
    id,
    name: "Acme support",
    llm: getFixtureLlm(),
    tools: [
      {
        name: "lookup_order",
        desc: "Find an order by its number.",
        sideEffects: "read",
        argsSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
        impl: { kind: "mock", output: { status: "in transit", eta: "Thursday" } },
      },
      {
        name: "refund_order",
        desc: "Refund an order.",
        sideEffects: "write",
        requiresApproval: true,
        argsSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
        impl: { kind: "mock", output: { refunded: true } },
      },
    ],
  });
  return id;
}

async function send(chat: Frame | Page, text: string): Promise<void> {
  const input = chat.getByTestId("chat-input");
  await input.fill(text);
  await input.press("Enter");
}

const assistant = (chat: Frame | Page) => chat.locator("[data-testid='chat-message'][data-role='assistant']");

test("the embed opens on an allowed site, streams two answers, and goes on after a reload", async ({
  page,
  request,
  baseURL,
}) => {
  const agentId = await createShopAgent(request, "public-embed");
  const chat = await publishChat(request, agentId, {
    title: "Acme support",
    welcome: "Hi! Ask about an order, shipping or returns.",
    starters: ["Where is my order?", "How do returns work?"],
    allowedOrigins: [site.allowedOrigin],
    theme: { accent: "#0f766e" },
  });
  site.setPage("/shop", getEmbedPage({ waddleUrl: baseURL!, chat, extra: ' data-open-text="Ask Acme"' }));
  await recordAnswerGrowth(page.context());
  const first =
    "Order **1042** left our warehouse on Monday. It is in transit and should arrive on Thursday.";
  await scriptFixture([
    fixtureReply.finalAnswer(first, STREAM),
    fixtureReply.json({ next_node: "lookup_order", args: { order: "1042" } }),
    fixtureReply.finalAnswer("Yes: order 1042 is still in transit, due on Thursday.", STREAM),
    fixtureReply.finalAnswer("Returns are free for 30 days: start one from your account page.", STREAM),
  ]);

  await page.goto(`${site.allowedOrigin}/shop`);
  const launcher = page.getByTestId("waddle-chat-launcher");
  await expect(launcher).toHaveText("Ask Acme");
  await expect(launcher).toHaveAttribute("aria-expanded", "false");
  await saveScreenshot(page, "public-chat-widget-closed");

  await launcher.click();
  await expect(launcher).toHaveAttribute("aria-expanded", "true");
  const frame = await getChatFrame(page);
  await expect(frame.getByTestId("chat-input")).toBeFocused();
  await expect(frame.locator(".chat-welcome")).toHaveText("Hi! Ask about an order, shipping or returns.");
  await frame.getByTestId("chat-starter").first().click();
  const answers = assistant(frame);
  await expect(answers.first()).toHaveAttribute("data-status", "finished", { timeout: 20_000 });
  await expect(answers.first().locator(".chat-answer")).toHaveText(first.replace(/\*\*/g, ""));
  await expect(answers.first().locator(".chat-answer strong")).toHaveText("1042");
  // seen growing piece by piece, in the region a screen reader follows
  expect((await takeAnswerGrowth(frame)).length).toBeGreaterThan(3);
  await expect(answers.first().locator(".chat-answer")).toHaveAttribute("aria-live", "polite");

  await send(frame, "Is it still on its way?");
  await expect(answers.nth(1)).toHaveAttribute("data-status", "finished", { timeout: 20_000 });
  await expect(answers.nth(1)).toContainText("still in transit");
  expect((await takeAnswerGrowth(frame)).length).toBeGreaterThan(3);
  const steps = answers.nth(1).getByTestId("chat-steps");
  await steps.locator("summary").click();
  await expect(steps).toContainText("lookup_order");
  await expect(frame.getByTestId("chat-message")).toHaveCount(4);
  await saveScreenshot(page, "public-chat-widget-open");

  // Escape inside the frame closes the panel and gives the focus back to the button
  await frame.getByTestId("chat-input").press("Escape");
  await expect(page.getByTestId("waddle-chat-panel")).toBeHidden();
  await expect(launcher).toBeFocused();

  // a reload keeps the conversation: the same visitor and session, and the next message goes on in it
  await page.reload();
  await page.getByTestId("waddle-chat-launcher").click();
  const again = await getChatFrame(page);
  await expect(again.getByTestId("chat-message")).toHaveCount(4);
  await expect(assistant(again).nth(1)).toContainText("still in transit");
  await send(again, "And how do returns work?");
  await expect(assistant(again).nth(2)).toHaveAttribute("data-status", "finished", { timeout: 20_000 });
  await expect(assistant(again).nth(2)).toContainText("free for 30 days");

  // New conversation starts over (the welcome and starters come back)
  await again.getByTestId("chat-new").click();
  await expect(again.getByTestId("chat-message")).toHaveCount(0);
  await expect(again.getByTestId("chat-starter")).toHaveCount(2);
  await expect(again.getByTestId("chat-input")).toBeFocused();
});

test("on an origin the chat does not allow, the embed shows nothing and the page refuses to be framed", async ({
  browser,
  request,
  baseURL,
}) => {
  const agentId = await createShopAgent(request, "public-refused");
  const chat = await publishChat(request, agentId, { title: "Acme", allowedOrigins: [site.allowedOrigin] });
  site.setPage("/refused", getEmbedPage({ waddleUrl: baseURL!, chat }));
  site.setPage("/framed", getFramingPage(`${baseURL}/chat/${chat.publicId}`));
  // a context of its own: the refusals this test provokes are what it checks, not page faults
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const refused = page.waitForEvent("console", (message) =>
      message.text().includes("Waddle chat: not shown"),
    );
    await page.goto(`${site.refusedOrigin}/refused`);
    await refused;
    await expect(page.locator("[data-waddle-chat]")).toHaveCount(0);

    // the hosted page itself, framed directly there: Chromium refuses it (frame-ancestors)
    await page.goto(`${site.refusedOrigin}/framed`);
    await page.waitForFunction(() => (window as unknown as { framed?: boolean }).framed === true);
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    expect(frame?.url()).not.toContain("/chat/");
    expect(await frame?.locator("#chat-root").count()).toBe(0);

    // the same pages on the allowed origin: the button, and the framed page
    await page.goto(`${site.allowedOrigin}/framed`);
    await expect(page.frameLocator("#chat").getByTestId("chat-input")).toBeVisible();
  } finally {
    await context.close();
  }
});
