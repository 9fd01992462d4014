import { fixtureReply } from "@waddle/planner/testing";
import { getRunFigures, type RunEvent } from "@waddle/protocol";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.js";
import { openDesigner, toolNode } from "./designer-helpers.js";
import { getFixtureLlm, scriptFixture } from "./llm-fixture.js";
import {
  attachScreenshot,
  createAgent,
  getRunEvents,
  getUniqueId,
  openAgent,
  startRunFromDesigner,
  startRunOverRest,
  waitForRunStatus,
} from "./runs-helpers.js";

const AGENT = "email-approval";
const QUERY = "Email Dana that the Q3 report is ready for review";
const NOTE = "Too pushy: ask Dana first whether she wants it by email";

/** `formatCount` of the designer: what a figure below 1000 reads as. */
const shown = (value: number): string => (value < 1000 ? String(value) : `${(value / 1000).toFixed(1)}k`);

/** The run panel's header figures: steps and tokens. */
async function expectHeaderFigures(page: Page, events: readonly RunEvent[]): Promise<void> {
  const figures = getRunFigures(events);
  await expect(page.getByTestId("run-steps")).toHaveText(String(figures.steps));
  await expect(page.getByTestId("run-tokens")).toHaveText(shown(figures.tokens));
}

test("a rejected step shows as rejected with its note, and steps and tokens agree live, final, in the timeline and the history; a replay shows its own query", async ({
  page,
  request,
}, testInfo) => {
  await openAgent(page, AGENT);
  const runId = await startRunFromDesigner(page, QUERY);
  await expect(page.getByTestId("run-status")).toHaveText("paused", { timeout: 20_000 });

  // live, at the pause: the header's figures are the server's events' figures
  await expectHeaderFigures(page, await getRunEvents(request, runId));

  const card = page.getByTestId("approval-card");
  await card.getByTestId("approval-note").fill(NOTE);
  await card.getByTestId("reject-button").click();
  await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });
  await waitForRunStatus(request, runId, "finished");
  const events = await getRunEvents(request, runId);
  const figures = getRunFigures(events);

  // the decision and its note are in the run's events
  expect(events.filter((event) => event.type === "resumed").map((event) => event.data)).toEqual([
    expect.objectContaining({ decision: "reject", note: NOTE }),
  ]);

  // final: the same figures once the run has finished
  await expectHeaderFigures(page, events);

  // the rejected step: `rejected` in the timeline, with the note, and on the node
  const rejected = page.locator("[data-testid='run-timeline-entry'][data-status='rejected']");
  await expect(rejected).toHaveCount(1);
  await rejected.scrollIntoViewIfNeeded();
  await expect(rejected).toContainText("Rejected: send_email");
  await expect(rejected.getByTestId("run-timeline-note")).toContainText(NOTE);
  await expect(toolNode(page, "send_email").getByTestId("node-run-status")).toHaveAttribute(
    "data-status",
    "rejected",
  );
  await expect(toolNode(page, "send_email")).toHaveAttribute("data-run-state", "rejected");
  await attachScreenshot(page, testInfo, "run-view-rejected-note");
  // its detail shows the whole note
  await rejected.click();
  await expect(page.getByTestId("step-detail")).toContainText(NOTE);
  await attachScreenshot(page, testInfo, "run-view-rejected-note-detail");

  // timeline: "Step 1" … "Step N" for the N steps done, then the answer, which is not a step
  const timeline = page.getByTestId("run-timeline");
  await timeline.focus();
  await page.keyboard.press("End");
  const names = page.getByTestId("run-timeline-step").locator(".timeline-step-name");
  await expect(names.last()).toHaveText("Answer");
  await expect(
    page.locator("[data-testid='run-timeline-step'][data-step-done='true'] .timeline-step-name").last(),
  ).toHaveText(`Step ${figures.steps}`);
  await expect(names.filter({ hasText: new RegExp(`^Step ${figures.steps + 1}$`) })).toHaveCount(0);

  // history: the same figures in the run's row
  await page.getByTestId("run-tab-history").click();
  const row = page.locator(`[data-testid='run-history-item'][data-run-id='${runId}']`);
  await expect(row.locator("[data-metric='Steps'] .run-metric-value")).toHaveText(String(figures.steps));
  await expect(row.locator("[data-metric='Tokens'] .run-metric-value")).toHaveText(shown(figures.tokens));

  // a replay of the run, from its start, shows the run's own query, not what the query box holds now
  await page.getByTestId("run-tab-run").click();
  await page.getByTestId("run-query").fill("Something else entirely");
  await openDesigner(page, `#/agents/${AGENT}/runs/${runId}`);
  const scrubber = page.getByTestId("replay-scrubber");
  await expect(scrubber).toBeVisible();
  await scrubber.fill("0");
  await expect(page.getByTestId("run-summary-query")).toContainText(QUERY);
  await expect(page.getByTestId("run-summary-query")).not.toContainText("Something else");
  await scrubber.fill(String(events.length));
  await expectHeaderFigures(page, events);
});

test("compare shows the status each run really has: failed beside finished", async ({
  page,
  request,
}, testInfo) => {
  const id = getUniqueId("compare-statuses");
  await createAgent(request, {
    version: 1,
    id,
    name: "Statuses, compared",
    llm: getFixtureLlm(),
    tools: [{ name: "lookup", desc: "Looks it up.", impl: { kind: "mock", output: { ok: true } } }],
  });
  await scriptFixture([fixtureReply.finalAnswer("Done.")]);
  const finished = await startRunOverRest(request, { agentId: id, query: "Answer at once" });
  await waitForRunStatus(request, finished, "finished");
  // nothing scripted: the endpoint refuses the call and the run fails
  await scriptFixture([]);
  const failed = await startRunOverRest(request, { agentId: id, query: "This one fails" });
  await waitForRunStatus(request, failed, "failed");

  await openAgent(page, id);
  await page.getByTestId("run-button").click();
  await page.getByTestId("run-tab-history").click();
  for (const runId of [finished, failed])
    await page
      .locator(`[data-testid='run-history-item'][data-run-id='${runId}']`)
      .getByTestId("run-history-pick")
      .check();
  await page.getByTestId("run-compare-button").click();
  const compare = page.getByTestId("run-compare");
  const heads = compare.locator(".compare-head");
  await expect(heads).toHaveCount(2);
  await expect(heads.nth(0)).toHaveAttribute("data-run-id", finished);
  await expect(heads.nth(0).getByTestId("compare-status")).toHaveAttribute("data-status", "finished");
  await expect(heads.nth(0).getByTestId("compare-status")).toHaveText("finished");
  await expect(heads.nth(1)).toHaveAttribute("data-run-id", failed);
  await expect(heads.nth(1).getByTestId("compare-status")).toHaveAttribute("data-status", "failed");
  await expect(heads.nth(1).getByTestId("compare-status")).toHaveText("failed");
  await attachScreenshot(page, testInfo, "run-view-compare-statuses");
});
