import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.js";
import { saveScreenshot } from "./designer-helpers.js";
import {
  createAgent,
  getAgentSpec,
  getUniqueId,
  openAgent,
  startRunFromDesigner,
  waitForRunStatus,
} from "./runs-helpers.js";

const FIRST = "My invoice shows a duplicate charge";
const SECOND = "How do I reset two-factor authentication?";

/** Opens a run from the History tab (it shows in the Run tab). */
async function openFromHistory(page: Page, runId: string): Promise<void> {
  await page.getByTestId("run-tab-history").click();
  await page.locator(`[data-testid='run-history-item'][data-run-id='${runId}'] .run-history-open`).click();
  await expect(page.getByTestId("run-summary")).toHaveAttribute("data-run-id", runId);
}

test("a replay of run A shows A's query, never the query run B was started with", async ({
  page,
  request,
}) => {
  const id = getUniqueId("replay-query");
  await createAgent(request, { ...(await getAgentSpec(request, "support-triage")), id, name: "Replay query" });
  await openAgent(page, id);
  const first = await startRunFromDesigner(page, FIRST);
  await waitForRunStatus(request, first, "finished");
  const second = await startRunFromDesigner(page, SECOND);
  await waitForRunStatus(request, second, "finished");
  await expect(page.getByTestId("run-query")).toHaveValue(SECOND);

  await openFromHistory(page, first);
  await expect(page.getByTestId("replay-scrubber")).toBeVisible();
  await expect(page.getByTestId("run-summary-query")).toContainText(FIRST);
  // the query box above the replay no longer holds B's query: it holds A's, to run again
  await expect(page.getByTestId("run-query")).toHaveValue(FIRST);
  await saveScreenshot(page, "first-hour-replay-query");

  // a draft typed by hand is kept when another run is shown
  await page.getByTestId("run-query").fill("A question nobody asked yet");
  await openFromHistory(page, second);
  await expect(page.getByTestId("run-query")).toHaveValue("A question nobody asked yet");
});
