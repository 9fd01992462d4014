import { expect, test } from "./fixtures.js";
import { createAgent, saveScreenshot, startServer } from "./designer-helpers.js";

// The palette's A2A agent: a second Waddle server is the remote agent; the designer's server reads its card
// through its http allow-list, shows it, and adds it as an a2a tool.
let remote: { url: string; stop: () => Promise<void> };
let waddle: { url: string; stop: () => Promise<void> };

test.beforeAll(async () => {
  remote = await startServer({});
  waddle = await startServer({ WADDLE_HTTP_ALLOW: new URL(remote.url).host });
});

test.afterAll(async () => {
  await waddle?.stop();
  await remote?.stop();
});

test("the palette's A2A agent fetches a card, shows its skills, refuses a host off the list, adds the tool", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${waddle.url}/`);
  await expect(page.getByTestId("canvas")).toBeVisible();
  await createAgent(page, { name: "Asks around", id: "asks-around" });
  await page.getByTestId("tab-palette").click();
  const section = page.getByTestId("palette-a2a");
  await expect(section).toBeVisible();

  // A host the server does not allow: the reason, from the server.
  await section.getByTestId("palette-a2a-url").fill("http://agents.example.com/a2a/helper");
  await section.getByTestId("palette-a2a-fetch").click();
  await expect(section.getByTestId("palette-a2a-error")).toContainText("WADDLE_HTTP_ALLOW");

  await section.getByTestId("palette-a2a-url").fill(`${remote.url}/a2a/support-triage`);
  await section.getByTestId("palette-a2a-fetch").click();
  const card = section.getByTestId("palette-a2a-card");
  await expect(card).toBeVisible();
  await expect(section.getByTestId("palette-a2a-error")).toHaveCount(0);
  await expect(card.getByTestId("palette-a2a-add")).toContainText("Support triage");
  await expect(card.locator(".palette-a2a-skills li")).not.toHaveCount(0);
  await section.scrollIntoViewIfNeeded();
  await saveScreenshot(page, "a2a-palette-card");

  await card.getByTestId("palette-a2a-add").click();
  const node = page.getByTestId("tool-node-ask_support_triage");
  await expect(node).toBeVisible();
  await expect(node.locator('[title^="A2A agent:"]')).toHaveCount(1);
  // The tool is described by the card (what the planner reads), and the inspector shows its URL.
  await node.click();
  await expect(page.getByTestId("a2a-url")).toHaveValue(`${remote.url}/a2a/support-triage`);
  await saveScreenshot(page, "a2a-palette-added");
});
