import { expect, test } from "./fixtures.js";
import { openDesigner, saveScreenshot } from "./designer-helpers.js";

/**
 * Use shows snippets that work pasted into a shell outside the checkout (test/use-snippets runs them): the
 * CLI by the absolute path the server gives in /api/health, never `npx waddle`, which is another package.
 */
test("Use runs the CLI from this server's checkout, and reads the run id curl got", async ({ page }) => {
  await openDesigner(page, "#/agents/support-triage");
  const health = (await (await page.request.get("/api/health")).json()) as { cliPath: string };
  expect(health.cliPath).toMatch(/^\/.*\/apps\/cli\/bin\/waddle\.mjs$/);

  await page.getByTestId("use-agent").click();
  const use = page.getByTestId("use-dialog");
  const cli = use.getByTestId("use-snippet-cli").locator("pre");
  await expect(cli).toContainText(`node ${health.cliPath} run support-triage `);
  await expect(cli).not.toContainText("npx");
  await expect(use.getByTestId("use-snippet-curl")).toContainText('run_id=$(echo "$answer"');
  await expect(use.getByTestId("use-snippet-curl")).not.toContainText("<runId>");
  await saveScreenshot(page, "use-dialog");
});
