import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures.js";
import { saveScreenshot, toolNode } from "./designer-helpers.js";
import {
  createAgent,
  getAgentSpec,
  getUniqueId,
  openAgent,
  startRunFromDesigner,
  startRunOverRest,
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
  await createAgent(request, {
    ...(await getAgentSpec(request, "support-triage")),
    id,
    name: "Replay query",
  });
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

/** Starts a run of `agentId` over REST and waits until it pauses; answers its id and the paused call's args. */
async function startPausedRun(
  request: APIRequestContext,
  agentId: string,
): Promise<{ runId: string; resumeToken: string; args: Record<string, unknown> }> {
  const runId = await startRunOverRest(request, { agentId, query: "Email Dana that the Q3 report is ready" });
  const run = await waitForRunStatus(request, runId, "paused");
  const args = (run.pause?.payload as { args?: Record<string, unknown> }).args ?? {};
  return { runId, resumeToken: run.pause!.resumeToken, args };
}

async function resumeRun(
  request: APIRequestContext,
  runId: string,
  body: Record<string, unknown>,
): Promise<void> {
  const answer = await request.post(`/api/runs/${runId}/resume`, { data: body });
  expect(answer.status(), await answer.text()).toBe(202);
  await waitForRunStatus(request, runId, "finished");
}

test("history marks runs approved with an edit or rejected; comparing two finished runs never says paused", async ({
  page,
  request,
}) => {
  const id = getUniqueId("decisions");
  await createAgent(request, { ...(await getAgentSpec(request, "email-approval")), id, name: "Decisions" });
  const edited = await startPausedRun(request, id);
  await resumeRun(request, edited.runId, {
    resumeToken: edited.resumeToken,
    decision: "edit",
    args: { ...edited.args, subject: "Q3 report, edited" },
  });
  const rejected = await startPausedRun(request, id);
  await resumeRun(request, rejected.runId, { resumeToken: rejected.resumeToken, decision: "reject" });
  const approved = await startPausedRun(request, id);
  await resumeRun(request, approved.runId, { resumeToken: approved.resumeToken, decision: "approve" });
  // one run left waiting, open on the canvas while two finished ones are compared
  const waiting = await startPausedRun(request, id);

  await openAgent(page, id);
  await page.goto(`/#/agents/${id}/runs/${waiting.runId}`);
  await expect(page.getByTestId("run-status")).toHaveText("paused");
  await page.getByTestId("run-tab-history").click();
  const row = (runId: string) => page.locator(`[data-testid='run-history-item'][data-run-id='${runId}']`);
  await expect(row(edited.runId).getByTestId("run-history-decision")).toHaveText("edited");
  await expect(row(edited.runId).getByTestId("run-history-decision")).toHaveAttribute(
    "data-decision",
    "edit",
  );
  await expect(row(rejected.runId).getByTestId("run-history-decision")).toHaveText("rejected");
  await expect(row(approved.runId).getByTestId("run-history-decision")).toHaveCount(0);
  await expect(row(waiting.runId).getByTestId("run-history-decision")).toHaveCount(0);
  await saveScreenshot(page, "first-hour-history-decisions");

  await row(edited.runId).getByTestId("run-history-pick").check();
  await row(approved.runId).getByTestId("run-history-pick").check();
  await page.getByTestId("run-compare-button").click();
  await expect(page.getByTestId("compare-summary")).toBeVisible();
  const bar = page.getByTestId("run-canvas-bar");
  await expect(bar).toHaveAttribute("data-mode", "compare");
  await expect(bar.locator(".run-state-chip")).toHaveText(["A finished", "B finished"]);
  await saveScreenshot(page, "first-hour-compare-bar");
});

test("a fork's reused calls say cached on their nodes; Compare with parent names an edited result", async ({
  page,
  request,
}) => {
  const id = getUniqueId("fork-flags");
  await createAgent(request, { ...(await getAgentSpec(request, "support-triage")), id, name: "Fork flags" });
  const parent = await startRunOverRest(request, { agentId: id, query: FIRST });
  await waitForRunStatus(request, parent, "finished");
  const fork = async (body: Record<string, unknown>) => {
    const answer = await request.post(`/api/runs/${parent}/fork`, { data: body });
    expect(answer.status(), await answer.text()).toBe(202);
    const runId = ((await answer.json()) as { runId: string }).runId;
    await waitForRunStatus(request, runId, "finished");
    return runId;
  };

  // forked at summarize with nothing changed: the plan and the pure summarize call come from the record
  const reused = await fork({ fromStep: 2 });
  await page.goto(`/#/agents/${id}/runs/${reused}`);
  await expect(page.getByTestId("run-summary")).toHaveAttribute("data-run-id", reused);
  const summarize = toolNode(page, "summarize").getByTestId("node-run-status");
  await expect(summarize).toHaveAttribute("data-cached", "true");
  await expect(summarize.getByTestId("node-run-cached")).toHaveText("cached");
  await expect(toolNode(page, "triage").getByTestId("node-run-status")).toHaveAttribute(
    "data-replayed",
    "true",
  );
  await saveScreenshot(page, "first-hour-fork-cached");

  // forked at retrieve_docs with another result: the same tools follow, but not the same run
  const edited = await fork({
    fromStep: 1,
    edit: {
      kind: "observation",
      value: { docs: [{ id: "kb-999", title: "An edited article", snippet: "Written by hand." }] },
    },
  });
  await page.goto(`/#/agents/${id}/runs/${edited}`);
  await expect(page.getByTestId("run-fork-of")).toBeVisible();
  await expect(toolNode(page, "retrieve_docs").getByTestId("node-run-edited")).toHaveText("edited");
  await page.getByTestId("compare-with-parent").click();
  const summary = page.getByTestId("compare-summary");
  await expect(summary).toHaveText(/^Same tools at every step, but B's result at step 2 was edited/);
  await expect(summary).not.toContainText("same thing at every step");
  await expect(page.getByTestId("compare-edited")).toHaveCount(1);
  await saveScreenshot(page, "first-hour-compare-edited");
});
