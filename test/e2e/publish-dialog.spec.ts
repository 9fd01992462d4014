import { expect, test } from "./fixtures.js";
import { openDesigner, saveScreenshot } from "./designer-helpers.js";
import { createAgent, getAgentSpec, getUniqueId } from "./runs-helpers.js";

/**
 * Publish → Public chat in the designer (issue 33): the settings with their checks, the share link, the
 * embed snippet and a live preview once saved, Rotate, and the Use dialog's view of the same chat.
 */
test("Publish turns on a public chat: checked settings, link, snippet, live preview, Rotate; Use shows them", async ({
  page,
  request,
}) => {
  const id = getUniqueId("publish");
  await createAgent(request, {
    ...(await getAgentSpec(request, "support-triage")),
    id,
    name: "Support desk",
  });
  await openDesigner(page, `#/agents/${id}`);
  await page.getByTestId("publish-open").click();
  const dialog = page.getByTestId("publish-dialog");
  await expect(dialog.getByTestId("publish-title")).toHaveValue("Support desk");
  await expect(dialog.getByTestId("publish-save")).toHaveText("Publish");

  await dialog.getByTestId("publish-welcome").fill("Hi! Ask me about **billing**, logins or bugs.");
  await dialog.getByTestId("publish-starters").fill("I was charged twice\nI cannot log in");
  // not an origin: refused in place, naming the entry and what to write instead
  await dialog.getByTestId("publish-origins").fill("https://shop.example/help");
  await dialog.getByTestId("publish-save").click();
  await expect(dialog.getByRole("alert").first()).toContainText("write https://shop.example");
  // * needs the explicit tick
  await dialog.getByTestId("publish-origins").fill("*");
  await dialog.getByTestId("publish-save").click();
  await expect(dialog.locator(".publish-any-origin")).toContainText("Tick this");
  await dialog.getByTestId("publish-origins").fill("https://shop.example\nhttp://localhost:5173");
  await dialog.getByTestId("publish-accent").fill("#0f766e");
  await dialog.getByTestId("publish-save").click();

  const share = dialog.getByTestId("publish-share");
  await expect(share.getByTestId("publish-public-id")).toHaveText(/^pub_/);
  const publicId = await share.getByTestId("publish-public-id").textContent();
  const key = await share.getByTestId("publish-key").textContent();
  expect(key).toMatch(/^wpk_/);
  await expect(share.getByTestId("publish-share-link")).toHaveText(
    `${new URL(page.url()).origin}/chat/${publicId}`,
  );
  await expect(share.getByTestId("publish-snippet")).toHaveText(
    `<script src="${new URL(page.url()).origin}/embed.js" data-public-id="${publicId}" async></script>`,
  );
  // the preview is the hosted page itself, framed by the designer's own origin
  const preview = page.frameLocator("[data-testid='publish-preview']");
  await expect(preview.getByRole("heading", { name: "Support desk" })).toBeVisible();
  await expect(preview.locator(".chat-welcome strong")).toHaveText("billing");
  await expect(preview.getByTestId("chat-starter")).toHaveCount(2);
  await expect(dialog.getByTestId("publish-save")).toHaveText("Save");
  await dialog.locator(".dialog-body").evaluate((body) => body.scrollTo(0, 0));
  await saveScreenshot(page, "publish-dialog");

  // Rotate asks once more, then the key (and the snippet) change
  await share.getByTestId("publish-rotate").click();
  await share.getByTestId("publish-rotate-confirm").click();
  await expect(share.getByTestId("publish-key")).not.toHaveText(key!);
  await expect(share.getByTestId("publish-snippet")).not.toContainText(key!);
  const saved = (await (await request.get(`/api/agents/${id}/public`)).json()) as {
    publishableKey: string;
    allowedOrigins: string[];
    starters: string[];
  };
  await expect(share.getByTestId("publish-key")).toHaveText(saved.publishableKey);
  expect(saved.allowedOrigins).toEqual(["https://shop.example", "http://localhost:5173"]);
  expect(saved.starters).toEqual(["I was charged twice", "I cannot log in"]);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // Use shows the same link and snippet, and the preview
  await page.getByTestId("use-agent").click();
  const use = page.getByTestId("use-dialog").getByTestId("use-public-chat");
  await expect(use.getByTestId("publish-snippet")).toContainText(`data-public-id="${publicId}"`);
  await expect(use.getByTestId("publish-key")).toHaveText(saved.publishableKey);
  await expect(use.getByTestId("publish-share-link")).toContainText(`/chat/${publicId}`);
  await expect(
    page.frameLocator("[data-testid='use-dialog'] [data-testid='publish-preview']").getByTestId("chat-input"),
  ).toBeVisible();
  await use.scrollIntoViewIfNeeded();
  await saveScreenshot(page, "use-dialog-public-chat");
});
