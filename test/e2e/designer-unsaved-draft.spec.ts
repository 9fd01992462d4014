import { expect, test } from "./fixtures.js";
import { addMockTool, createAgent, openDesigner, saveScreenshot, toolNode } from "./designer-helpers.js";

test("a new agent that was never saved keeps its draft in the browser: a reload offers it back", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDesigner(page);
  await createAgent(page, { name: "Refund desk", id: "refund-desk" });
  await addMockTool(page, "lookup_refund");

  // the edit is kept in this browser (the server keeps drafts of saved agents only)
  await expect
    .poll(() => page.evaluate(() => window.localStorage.getItem("waddle.unsavedDraft") ?? ""))
    .toContain("lookup_refund");
  page.on("dialog", (prompt) => void prompt.accept());
  await page.reload();

  const banner = page.getByTestId("draft-banner");
  await expect(banner).toBeVisible();
  await expect(banner).toHaveAttribute("data-kind", "unsaved");
  await expect(banner).toContainText("“Refund desk” was never saved");
  await expect(page.getByTestId("doc-name")).toHaveText("Untitled agent");
  await saveScreenshot(page, "unsaved-draft-banner");

  await banner.getByTestId("draft-restore").click();
  await expect(banner).toBeHidden();
  await expect(page.getByTestId("doc-name")).toHaveText("Refund desk");
  await expect(toolNode(page, "lookup_refund")).toBeVisible();
  await expect(page.getByTestId("save-status")).toHaveText("Not saved yet");

  // saved, it is an agent like any other: nothing is offered after the next reload
  await page.getByTestId("save-button").click();
  await expect(page.getByTestId("save-status")).toHaveText(/^Saved · v1$/);
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem("waddle.unsavedDraft"))).toBeNull();
  await page.reload();
  await expect(page.getByTestId("doc-name")).toHaveText("Refund desk");
  await expect(page.getByTestId("draft-banner")).toBeHidden();
});
