import { expect, test } from "./fixtures.js";
import { saveScreenshot, startServer } from "./designer-helpers.js";

test("a server with WADDLE_TOKEN: the designer asks for the token once and keeps it", async ({ page }) => {
  const token = "e2e-token-0123456789abcdef";
  const server = await startServer({ WADDLE_TOKEN: token });
  try {
    await page.goto(`${server.url}/`);
    const dialog = page.getByTestId("token-dialog");
    await expect(dialog).toBeVisible();
    await saveScreenshot(page, "designer-token");
    await dialog.getByTestId("token-input").fill(token);
    await dialog.getByTestId("token-accept").click();
    await expect(page.getByTestId("agent-item-support-triage")).toBeVisible();

    await page.reload();
    await expect(page.getByTestId("agent-item-support-triage")).toBeVisible();
    await expect(page.getByTestId("token-dialog")).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem("waddle.token"))).toBe(token);
  } finally {
    await server.stop();
  }
});
