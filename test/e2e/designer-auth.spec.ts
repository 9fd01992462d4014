import { expect, test } from "./fixtures.js";
import { saveScreenshot, startServer } from "./designer-helpers.js";

test("a server with WADDLE_TOKEN: the designer asks for it on the sign-in screen once and keeps it", async ({
  page,
}) => {
  const token = "e2e-token-0123456789abcdef";
  const server = await startServer({ WADDLE_TOKEN: token });
  try {
    await page.goto(`${server.url}/`);
    // The sign-in screen (issue 24) takes WADDLE_TOKEN as the bootstrap admin key.
    await expect(page.getByTestId("signin-key")).toBeVisible();
    await saveScreenshot(page, "designer-token");
    await page.getByTestId("signin-key").fill(token);
    await page.getByTestId("signin-submit").click();
    await expect(page.getByTestId("agent-item-support-triage")).toBeVisible();
    await expect(page.getByTestId("whoami")).toContainText("WADDLE_TOKEN");

    await page.reload();
    await expect(page.getByTestId("agent-item-support-triage")).toBeVisible();
    await expect(page.getByTestId("signin-key")).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem("waddle.token"))).toBe(token);
  } finally {
    await server.stop();
  }
});
