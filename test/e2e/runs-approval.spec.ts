import { expect, test } from "./fixtures.js";
import { openDesigner, toolNode } from "./designer-helpers.js";
import {
  attachScreenshot,
  getRunEvents,
  getToolStarts,
  openAgent,
  startRunFromDesigner,
  startRunOverRest,
  waitForRunStatus,
} from "./runs-helpers.js";

const AGENT = "email-approval";
const QUERY = "Email Dana that the Q3 report is ready for review";

test("the email-approval example pauses, is approved with edited args from the canvas and sends those", async ({
  page,
  request,
}, testInfo) => {
  await openAgent(page, AGENT);
  const runId = await startRunFromDesigner(page, QUERY);
  await expect(page.getByTestId("run-status")).toHaveText("paused", { timeout: 20_000 });
  const send = toolNode(page, "send_email");
  await expect(send).toHaveAttribute("data-run-state", "awaiting_approval");
  await expect(toolNode(page, "draft_email")).toHaveAttribute("data-run-state", "succeeded");
  // the decision is offered on the node and in the panel
  const card = page.getByTestId("approval-card");
  await expect(card).toBeVisible();
  await expect(card.getByTestId("approval-args")).toContainText("dana.reyes@example.com");
  await expect(card.getByTestId("approve-button")).toBeVisible();
  await expect(card.getByTestId("reject-button")).toBeVisible();
  await expect(card.getByTestId("edit-args-button")).toBeVisible();
  await expect(send.getByTestId("node-approve-button")).toBeVisible();
  await attachScreenshot(page, testInfo, "runs-pause");

  // edit from the canvas: the form is generated from send_email's args schema, prefilled with the proposal
  await send.getByTestId("node-edit-args-button").click();
  const form = card.getByTestId("args-form");
  await expect(form).toBeVisible();
  await expect(form.getByTestId("args-field-to")).toHaveValue("dana.reyes@example.com");
  await expect(form.getByTestId("args-field-subject")).toHaveValue("Quick update");
  // validated before sending: a required field left empty is refused in place
  await form.getByTestId("args-field-to").fill("");
  await card.getByTestId("send-edited-args").click();
  await expect(card.getByTestId("args-form-errors")).toBeVisible();
  expect((await getRunEvents(request, runId)).some((event) => event.type === "resumed")).toBe(false);

  const edited = {
    to: "dana@finance.example.com",
    subject: "Q3 report ready for review",
    body: "Hi Dana,\n\nThe Q3 report is ready for your review.\n\nThanks",
  };
  await form.getByTestId("args-field-to").fill(edited.to);
  await form.getByTestId("args-field-subject").fill(edited.subject);
  await form.getByTestId("args-field-body").fill(edited.body);
  await card.getByTestId("approval-note").fill("Use her finance address");
  await card.getByTestId("send-edited-args").click();

  await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });
  await expect(card).toBeHidden();
  await expect(send).toHaveAttribute("data-run-state", "succeeded");
  await expect(page.getByTestId("run-answer")).toContainText(edited.to);
  await waitForRunStatus(request, runId, "finished");
  const events = await getRunEvents(request, runId);
  const resumed = events.filter((event) => event.type === "resumed");
  expect(resumed.map((event) => event.data)).toEqual([
    expect.objectContaining({ decision: "edit", args: edited }),
  ]);
  const sent = getToolStarts(events).filter((event) => event.data.tool === "send_email");
  expect(sent.map((event) => event.data.args)).toEqual([edited]);
});

test("two pages answer one pause: the first answer wins and the other page is told, with the run's new state", async ({
  page,
  browser,
  baseURL,
  request,
}, testInfo) => {
  const runId = await startRunOverRest(request, { agentId: AGENT, query: QUERY });
  await waitForRunStatus(request, runId, "paused");
  const route = `#/agents/${AGENT}/runs/${runId}`;
  await openDesigner(page, route);
  const other = await browser.newContext({ baseURL });
  try {
    const otherPage = await other.newPage();
    await openDesigner(otherPage, route);
    for (const each of [page, otherPage]) {
      await expect(each.getByTestId("run-status")).toHaveText("paused");
      await expect(each.getByTestId("approve-button")).toBeVisible();
    }

    // the other page rejects at the same moment; its request reaches the server just after ours
    let releaseReject: () => void = () => undefined;
    const ourAnswerIn = new Promise<void>((resolve) => (releaseReject = resolve));
    await otherPage.route("**/api/runs/*/resume", async (held) => {
      await ourAnswerIn;
      await held.continue();
    });
    const rejectSent = otherPage.waitForRequest("**/api/runs/*/resume");
    await otherPage.getByTestId("reject-button").click();
    await rejectSent;
    const approved = page.waitForResponse("**/api/runs/*/resume");
    await page.getByTestId("approve-button").click();
    expect((await approved).status()).toBe(202);
    const refused = otherPage.waitForResponse("**/api/runs/*/resume");
    releaseReject();
    expect((await refused).status()).toBe(409);

    // the loser is told clearly, and shows where the run is now
    const told = otherPage.getByTestId("already-answered");
    await expect(told).toBeVisible();
    await expect(told).toContainText(/already answered/i);
    await expect(otherPage.getByTestId("approval-card")).toBeHidden();
    await expect(otherPage.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });
    await expect(toolNode(otherPage, "send_email")).toHaveAttribute("data-run-state", "succeeded");
    await attachScreenshot(otherPage, testInfo, "runs-pause-already-answered");

    // the winner sees its decision go through, with no error
    await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });
    await expect(page.getByTestId("already-answered")).toHaveCount(0);
    const events = await getRunEvents(request, runId);
    expect(events.filter((event) => event.type === "resumed").map((event) => event.data.decision)).toEqual([
      "approve",
    ]);
    expect(getToolStarts(events).filter((event) => event.data.tool === "send_email")).toHaveLength(1);
  } finally {
    await other.close();
  }
});
