import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures.js";
import { openDesigner, selectTool } from "./designer-helpers.js";
import {
  attachScreenshot,
  createAgent,
  getAgentSpec,
  getRunEvents,
  getUniqueId,
  openAgent,
  startRunOverRest,
  waitForRunStatus,
} from "./runs-helpers.js";

const QUERY = "Email Dana that the Q3 report is ready for review";

/**
 * Saves a copy of the email-approval example (send_email waits for a person) under a new id; `approval`
 * puts a time limit on send_email's pause.
 */
async function createApprovalAgent(
  request: APIRequestContext,
  options: { base: string; name: string; approval?: { timeoutS: number; onTimeout: string } },
): Promise<string> {
  const id = getUniqueId(options.base);
  const spec = await getAgentSpec(request, "email-approval");
  const tools = (spec.tools as { name: string }[]).map((tool) =>
    tool.name === "send_email" && options.approval ? { ...tool, approval: options.approval } : tool,
  );
  await createAgent(request, { ...spec, id, name: options.name, tools });
  return id;
}

async function startPausedRun(request: APIRequestContext, agentId: string): Promise<string> {
  const runId = await startRunOverRest(request, { agentId, query: QUERY });
  await waitForRunStatus(request, runId, "paused");
  return runId;
}

/** The inbox's item of a run. */
const itemOf = (page: Page, runId: string) =>
  page.locator(`[data-testid="inbox-item"][data-run-id="${runId}"]`);

test("the inbox lists pauses of two agents live, and a decision with a note from it lets the run go on", async ({
  page,
  request,
}, testInfo) => {
  const mailer = await createApprovalAgent(request, { base: "inbox-mailer", name: "Customer mailer" });
  const billing = await createApprovalAgent(request, {
    base: "inbox-billing",
    name: "Billing notices",
    approval: { timeoutS: 1_800, onTimeout: "reject" },
  });
  const mailerRun = await startPausedRun(request, mailer);
  const billingRun = await startPausedRun(request, billing);

  await openDesigner(page, `#/agents/${mailer}`);
  // the badge counts open items across agents (other specs' pauses too): at least these two
  await expect
    .poll(async () => Number(await page.getByTestId("inbox-count").textContent()))
    .toBeGreaterThanOrEqual(2);
  await page.getByTestId("inbox-open").click();
  await expect(page.getByTestId("inbox-page")).toBeVisible();

  const mailerItem = itemOf(page, mailerRun);
  const billingItem = itemOf(page, billingRun);
  await expect(mailerItem).toHaveAttribute("data-agent", mailer);
  await expect(mailerItem).toHaveAttribute("data-kind", "pause");
  await expect(billingItem).toHaveAttribute("data-agent", billing);
  await expect(mailerItem.getByTestId("approval-args")).toContainText("dana.reyes@example.com");
  await expect(mailerItem.getByTestId("inbox-started-by")).toHaveText("the local user");
  await expect(mailerItem.getByTestId("inbox-waited")).toHaveText(/^\d+ (s|min)$/);
  // only the billing agent's send_email has a time limit: its item counts down to the server's decision
  await expect(mailerItem.getByTestId("inbox-due")).toHaveCount(0);
  const due = billingItem.getByTestId("inbox-due");
  await expect(due).toContainText(/rejects in (29|30):\d\d/);
  const before = await due.locator(".inbox-due-countdown").textContent();
  await expect(due.locator(".inbox-due-countdown")).not.toHaveText(before ?? "");

  // filters: by agent, then back to all
  await page.getByTestId("inbox-filter-agent").selectOption(billing);
  await expect(mailerItem).toHaveCount(0);
  await expect(billingItem).toBeVisible();
  await page.getByTestId("inbox-filter-agent").selectOption("");
  await expect(mailerItem).toBeVisible();

  // live: a run that pauses while the page is open shows without a reload
  const laterRun = await startRunOverRest(request, { agentId: mailer, query: QUERY });
  await expect(itemOf(page, laterRun)).toBeVisible({ timeout: 20_000 });
  await attachScreenshot(page, testInfo, "inbox-page");

  // assign to a key by its name, and snooze: the item leaves the open list and shows under Snoozed
  const later = itemOf(page, laterRun);
  await later.getByTestId("inbox-assign").click();
  await later.getByTestId("inbox-assign-name").fill("dana");
  await later.getByTestId("inbox-assign-submit").click();
  await expect(later.getByTestId("inbox-assignee")).toHaveText("dana");
  await later.getByTestId("inbox-snooze").click();
  await later.getByTestId("inbox-snooze-1h").click();
  await expect(later).toHaveCount(0);
  await page.getByTestId("inbox-filter-state").selectOption("snoozed");
  await expect(itemOf(page, laterRun).getByTestId("inbox-snoozed")).toContainText("until");
  await page.getByTestId("inbox-filter-state").selectOption("open");

  // approve with a note: the item goes, and the run goes on to its end with the note in its events
  await mailerItem.getByTestId("approval-note").fill("Checked the address with Dana");
  await mailerItem.getByTestId("inbox-approve").click();
  await expect(mailerItem).toHaveCount(0);
  await waitForRunStatus(request, mailerRun, "finished");
  const resumed = (await getRunEvents(request, mailerRun)).filter((event) => event.type === "resumed");
  expect(resumed.map((event) => event.data)).toEqual([
    expect.objectContaining({ decision: "approve", note: "Checked the address with Dana" }),
  ]);

  // edit the args from the inbox: the same form as the run view, from send_email's args schema
  await billingItem.getByTestId("inbox-edit").click();
  const form = billingItem.getByTestId("args-form");
  await expect(form.getByTestId("args-field-to")).toHaveValue("dana.reyes@example.com");
  await form.getByTestId("args-field-subject").fill("Invoice 1042 is ready");
  await billingItem.getByTestId("approval-note").fill("Clearer subject");
  await attachScreenshot(page, testInfo, "inbox-edit");
  await billingItem.getByTestId("send-edited-args").click();
  await expect(billingItem).toHaveCount(0);
  await waitForRunStatus(request, billingRun, "finished");
  const edited = (await getRunEvents(request, billingRun)).find((event) => event.type === "resumed");
  expect(edited?.data).toMatchObject({
    decision: "edit",
    args: { subject: "Invoice 1042 is ready" },
    note: "Clearer subject",
  });

  // Open goes to the run on the canvas, paused there, and deciding there ends it
  await page.getByTestId("inbox-filter-state").selectOption("snoozed");
  await itemOf(page, laterRun).getByTestId("inbox-open-run").click();
  await expect(page.getByTestId("inbox-page")).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`#/agents/${mailer}/runs/${laterRun}$`));
  await expect(page.getByTestId("run-status")).toHaveText("paused");
  await page.getByTestId("approval-card").getByTestId("reject-button").click();
  await expect(page.getByTestId("run-status")).not.toHaveText("paused", { timeout: 20_000 });
});

test("a tool's and the agent's approval time limits are set in the inspector, checked, and saved in the spec", async ({
  page,
  request,
}, testInfo) => {
  const agentId = await createApprovalAgent(request, { base: "inbox-limits", name: "Limits" });
  await openAgent(page, agentId);
  await selectTool(page, "send_email");
  const tool = page.getByTestId("tool-approval-limit");
  await expect(tool).toContainText("a pause here waits until a person decides");
  await tool.getByTestId("tool-approval-limit-toggle").check();
  await expect(tool.getByTestId("tool-approval-limit-amount")).toHaveValue("1");
  await expect(tool.getByTestId("tool-approval-limit-unit")).toHaveValue("h");
  // refused in place, and nothing stored, until it fits the spec's bounds
  await tool.getByTestId("tool-approval-limit-amount").fill("0");
  await expect(tool.getByTestId("tool-approval-limit-error")).toHaveText("Wait at least 1 second.");
  await tool.getByTestId("tool-approval-limit-amount").fill("800");
  await expect(tool.getByTestId("tool-approval-limit-error")).toHaveText("At most 30 days (720 h).");
  await tool.getByTestId("tool-approval-limit-amount").fill("45");
  await tool.getByTestId("tool-approval-limit-unit").selectOption("min");
  await tool.getByTestId("tool-approval-limit-action").selectOption("approve");
  await expect(tool).toContainText("the call goes ahead as proposed");
  await tool.scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, "inbox-approval-limit-tool");

  await page.getByTestId("tab-settings").click();
  const agent = page.getByTestId("agent-approval-limit");
  await agent.getByTestId("agent-approval-limit-toggle").check();
  await agent.getByTestId("agent-approval-limit-amount").fill("2");
  await agent.getByTestId("agent-approval-limit-action").selectOption("fail");
  await agent.scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, "inbox-approval-limit-agent");

  await page.getByTestId("save-button").click();
  await expect(page.getByTestId("save-status")).toHaveText("Saved · v2");
  const spec = await getAgentSpec(request, agentId);
  const sendEmail = (spec.tools as { name: string; approval?: unknown }[]).find(
    (item) => item.name === "send_email",
  );
  expect(sendEmail?.approval).toEqual({ timeoutS: 2_700, onTimeout: "approve" });
  expect(spec.approval).toEqual({ timeoutS: 7_200, onTimeout: "fail" });
});
