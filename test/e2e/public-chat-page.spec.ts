import { fixtureReply } from "@waddle/planner/testing";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.js";
import { openDesigner, saveScreenshot } from "./designer-helpers.js";
import { getFixtureLlm, scriptFixture } from "./llm-fixture.js";
import { publishChat } from "./public-chat-helpers.js";
import { createAgent, getUniqueId, openAgent } from "./runs-helpers.js";

/**
 * The hosted chat page (issue 33) on its own link: a phone and a desktop in light and dark, an answer that
 * tries to run script, a turn that waits for a team member's approval in the designer, and a visitor's
 * thumbs-down with a comment seen in History. Agents run on the local OpenAI-compatible fixture.
 */

const STREAM = { chunkSize: 8, chunkDelayMs: 30 };

async function createAgentOnFixture(request: Parameters<typeof createAgent>[0], name: string) {
  const id = getUniqueId(name);
  await createAgent(request, {
    version: 1,
    id,
    name: "Acme support",
    llm: getFixtureLlm(),
    tools: [
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

const assistant = (page: Page) => page.locator("[data-testid='chat-message'][data-role='assistant']");

async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId("chat-input").fill(text);
  await page.getByTestId("chat-send").click();
}

/** Nothing wider than the viewport: no sideways scrolling on a phone. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
}

const ANSWER = [
  "Here is how to track **order 1042**:",
  "",
  "1. Open your account page",
  "2. Pick the order and press *Track*",
  "",
  "From a terminal:",
  "",
  "```bash",
  "curl https://acme.example/api/orders/1042",
  "```",
  "",
  "See [the help centre](https://acme.example/help) for more.",
].join("\n");

test("the hosted page on a phone and on a desktop, light and dark", async ({ page, request }) => {
  const agentId = await createAgentOnFixture(request, "public-page");
  const chat = await publishChat(request, agentId, {
    title: "Acme support",
    welcome: "Hi! I can help with **orders**, shipping and returns.",
    starters: ["How do I track my order?", "What is your returns policy?", "Do you ship abroad?"],
    allowedOrigins: [],
    showSteps: "names",
    theme: { accent: "#0f766e" },
  });
  await scriptFixture([fixtureReply.finalAnswer(ANSWER, STREAM)]);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(`/chat/${chat.publicId}`);
  await expect(page.getByRole("heading", { name: "Acme support" })).toBeVisible();
  await expect(page.getByTestId("chat-starter")).toHaveCount(3);
  await expectNoSidewaysScroll(page);
  await saveScreenshot(page, "public-chat-phone-light-start");

  // keyboard only: Tab to the first starter, Enter sends it
  await page.getByTestId("chat-starter").first().focus();
  await page.keyboard.press("Enter");
  const answer = assistant(page).first();
  await expect(answer).toHaveAttribute("data-status", "finished", { timeout: 20_000 });
  await expect(answer.locator("pre code")).toHaveText("curl https://acme.example/api/orders/1042\n");
  await expect(answer.getByTestId("chat-copy")).toBeVisible();
  await expect(answer.locator("a")).toHaveAttribute("href", "https://acme.example/help");
  await expect(answer.locator("a")).toHaveAttribute("rel", "noopener noreferrer nofollow");
  await expect(page.locator(".chat-starters")).toBeHidden();
  await expectNoSidewaysScroll(page);
  await saveScreenshot(page, "public-chat-phone-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await saveScreenshot(page, "public-chat-phone-dark");

  // Shift+Enter is a new line, Enter would send
  const input = page.getByTestId("chat-input");
  await input.fill("line one");
  await input.press("Shift+Enter");
  await input.pressSequentially("line two");
  await expect(input).toHaveValue("line one\nline two");
  await input.fill("");

  await page.setViewportSize({ width: 1440, height: 900 });
  await saveScreenshot(page, "public-chat-desktop-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await saveScreenshot(page, "public-chat-desktop-light");
});

test("an answer with script, handlers and javascript: links renders as text and runs nothing", async ({
  page,
  request,
}) => {
  const agentId = await createAgentOnFixture(request, "public-hostile");
  const chat = await publishChat(request, agentId, { title: "Acme", allowedOrigins: [] });
  const hostile = [
    "Sure. <script>window.__pwned = 'script'</script>",
    "",
    "<img src=x onerror=\"window.__pwned = 'img'\">",
    "",
    "[click me](javascript:window.__pwned='link')",
    "",
    "<a href=\"javascript:window.__pwned='raw'\">raw link</a> and <b onmouseover=\"window.__pwned='b'\">bold</b>",
    "",
    "![pixel](https://tracker.example/p.gif?c=secret)",
  ].join("\n");
  await scriptFixture([fixtureReply.finalAnswer(hostile, STREAM)]);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const tracker: string[] = [];
  page.on("request", (sent) => {
    if (sent.url().includes("tracker.example")) tracker.push(sent.url());
  });

  await page.goto(`/chat/${chat.publicId}`);
  await send(page, "Show me something");
  const answer = assistant(page).first().locator(".chat-answer");
  await expect(assistant(page).first()).toHaveAttribute("data-status", "finished", { timeout: 20_000 });
  // the markup is shown as the text it is
  await expect(answer).toContainText("<script>window.__pwned = 'script'</script>");
  await expect(answer).toContainText("<img src=x onerror=\"window.__pwned = 'img'\">");
  await expect(answer).toContainText("click me");
  // and none of it is an element: no script, image, handler, or javascript: link
  expect(await answer.locator("script, img, iframe, svg, b[onmouseover]").count()).toBe(0);
  expect(await answer.locator("[onerror], [onclick], [onmouseover], [onload]").count()).toBe(0);
  expect(await answer.locator("a[href^='javascript' i]").count()).toBe(0);
  await answer.getByText("click me").click();
  await answer.getByText("raw link").hover();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
  // the image became a link to it: nothing was fetched from the tracker
  await expect(answer.locator("a[href^='https://tracker.example']")).toHaveText("pixel (image)");
  expect(tracker).toEqual([]);
  await saveScreenshot(page, "public-chat-hostile-answer");
});

test("a public turn waits for a team member, who approves it in the designer; the visitor's page goes on", async ({
  page,
  request,
}) => {
  const agentId = await createAgentOnFixture(request, "public-approval");
  const chat = await publishChat(request, agentId, { title: "Acme refunds", allowedOrigins: [] });
  await scriptFixture([
    fixtureReply.json({ next_node: "refund_order", args: { order: "1042" } }),
    fixtureReply.finalAnswer("Done: order 1042 is refunded. The money is back in 3 to 5 days.", STREAM),
  ]);

  await page.goto(`/chat/${chat.publicId}`);
  await send(page, "Please refund order 1042");
  const waiting = page.getByTestId("chat-waiting");
  await expect(waiting).toHaveText("Waiting for a team member to approve refund_order…", { timeout: 20_000 });
  await expect(waiting).not.toContainText("1042");
  await saveScreenshot(page, "public-chat-waiting");

  // a team member, in the designer (a page of its own), approves the paused run from History
  const team = await page.context().newPage();
  try {
    await openAgent(team, agentId);
    await team.getByTestId("run-button").click();
    await team.getByTestId("run-tab-history").click();
    const paused = team.locator("[data-testid='run-history-item'][data-status='paused']");
    await paused.locator(".run-history-open").click();
    await team.getByTestId("approval-card").getByTestId("approve-button").click();
    await expect(team.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });
  } finally {
    await team.close();
  }

  // the visitor's page went on live
  const answer = assistant(page).first();
  await expect(answer).toHaveAttribute("data-status", "finished", { timeout: 20_000 });
  await expect(waiting).toBeHidden();
  await expect(answer).toContainText("order 1042 is refunded");
});

test("a visitor's thumbs-down with a comment shows in History, under Rated down", async ({
  page,
  request,
}) => {
  const agentId = await createAgentOnFixture(request, "public-rating");
  const chat = await publishChat(request, agentId, { title: "Acme", allowedOrigins: [] });
  await scriptFixture([
    fixtureReply.finalAnswer("Our shop is open on Sundays.", STREAM),
    fixtureReply.finalAnswer("Shipping is free over 50 euros.", STREAM),
  ]);
  await page.goto(`/chat/${chat.publicId}`);
  await send(page, "Are you open on Sundays?");
  await expect(assistant(page).first()).toHaveAttribute("data-status", "finished", { timeout: 20_000 });
  await send(page, "Is shipping free?");
  await expect(assistant(page).nth(1)).toHaveAttribute("data-status", "finished", { timeout: 20_000 });

  const first = assistant(page).first();
  await first.getByTestId("chat-rating-down").click();
  await expect(first.getByTestId("chat-rating-down")).toHaveAttribute("aria-pressed", "true");
  await first.getByTestId("chat-comment").fill("We are closed on Sundays!");
  await first.getByTestId("chat-comment-send").click();
  await expect(first.locator(".chat-feedback-note")).toHaveText("Thanks for your feedback.");
  await assistant(page).nth(1).getByTestId("chat-rating-up").click();
  await expect(assistant(page).nth(1).getByTestId("chat-rating-up")).toHaveAttribute("aria-pressed", "true");

  await openDesigner(page, `#/agents/${agentId}`);
  await page.getByTestId("run-button").click();
  await page.getByTestId("run-tab-history").click();
  await expect(page.getByTestId("run-history-item")).toHaveCount(2);
  await page.getByTestId("run-history-rating-filter").selectOption("down");
  const rows = page.getByTestId("run-history-item");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Are you open on Sundays?");
  await expect(rows.first().getByTestId("run-history-rating")).toHaveAttribute("data-rating", "down");
  await expect(rows.first().getByTestId("run-history-comment")).toHaveText(
    "Visitor's comment: “We are closed on Sundays!”",
  );
  await saveScreenshot(page, "public-chat-history-rated-down");
  await page.getByTestId("run-history-rating-filter").selectOption("up");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Is shipping free?");
});
