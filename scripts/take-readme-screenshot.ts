// Takes the README's screenshot of a run on the canvas (docs/images/run-on-canvas.png): the built server on a
// free port with a fresh data folder and the offline model, Debian's Chromium at 1440×900, an example agent
// run from the designer until it finishes. Run: npm run docs:screenshot [-- <agent-id>] (it builds first).
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Page } from "@playwright/test";
import { spawnServer } from "@waddle/server/testing";

const OUTPUT = fileURLToPath(new URL("../docs/images/run-on-canvas.png", import.meta.url));
const AGENT_ID = process.argv[2] ?? "sharded-research";
const TIMEOUT_MS = 60_000;

/** Opens the agent, runs its first sample query from the run panel and waits until the run has finished. */
async function runOnCanvas(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/#/agents/${AGENT_ID}`);
  await page
    .getByTestId("save-status")
    .filter({ hasText: /^Saved · v\d+$/ })
    .waitFor({ timeout: TIMEOUT_MS });
  await page.getByTestId("run-button").click();
  await page.getByTestId("sample-query").first().click();
  await page.getByTestId("run-start").click();
  await page
    .getByTestId("run-status")
    .filter({ hasText: /^finished$/ })
    .waitFor({ timeout: TIMEOUT_MS });
  // The view followed the run to its last tool: show every tool again, then let the edges' animation and
  // the view's transition settle so that the picture is stable.
  await page.locator(".react-flow__controls-fitview").click();
  await page.waitForTimeout(1_500);
}

const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-screenshot-"));
const server = await spawnServer({
  code: "built",
  env: { WADDLE_DATA_DIR: dataDir, NODE_ENV: "production" },
});
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await runOnCanvas(page, server.url);
  await page.screenshot({ path: OUTPUT });
  process.stdout.write(`wrote ${path.relative(process.cwd(), OUTPUT)} (${statSync(OUTPUT).size} bytes)\n`);
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
