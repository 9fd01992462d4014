import { expect, test } from "./fixtures.js";
import { saveScreenshot, startServer } from "./designer-helpers.js";

const TOKEN = "e2e-access-token-0123456789abcdef";

async function createKey(url: string, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${url}/api/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

test("sign in as a viewer (nothing editable, reasons on hover), then as an editor; an admin manages keys", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const server = await startServer({ WADDLE_TOKEN: TOKEN });
  try {
    const viewer = await createKey(server.url, { name: "Vera Viewer", role: "viewer" });
    const editor = await createKey(server.url, { name: "Ed Editor", role: "editor" });

    await page.goto(`${server.url}/#/agents/support-triage`);
    await expect(page.getByTestId("signin-key")).toBeVisible();
    await saveScreenshot(page, "access-signin");
    await page.getByTestId("signin-key").fill("wdl_not_a_real_key");
    await page.getByTestId("signin-submit").click();
    await expect(page.getByRole("alert")).toContainText("not valid");

    await page.getByTestId("signin-key").fill(viewer);
    await page.getByTestId("signin-submit").click();
    await expect(page.getByTestId("whoami")).toHaveText(/Vera Viewer · viewer/);
    await expect(page.getByTestId("agent-item-support-triage")).toBeVisible();
    for (const testId of [
      "save-button",
      "run-button",
      "open-credentials",
      "open-access",
      "agent-delete-support-triage",
    ]) {
      const control = page.getByTestId(testId);
      await expect(control, testId).toBeDisabled();
      await expect(control, testId).toHaveAttribute("title", /may not|Only admins/);
    }
    await expect(page.getByTestId("save-button")).toHaveAttribute("title", /agents:write/);
    await expect(page.getByTestId("run-button")).toHaveAttribute("title", /runs:start/);

    await page.getByTestId("sign-out").click();
    await expect(page.getByTestId("signin-key")).toBeVisible();
    await page.getByTestId("signin-key").fill(editor);
    await page.getByTestId("signin-submit").click();
    await expect(page.getByTestId("whoami")).toHaveText(/Ed Editor · editor/);
    await expect(page.getByTestId("run-button")).toBeEnabled();
    await expect(page.getByTestId("agent-delete-support-triage")).toBeEnabled();
    await expect(page.getByTestId("open-credentials")).toBeDisabled();

    // The bootstrap admin: Settings → Access lists the keys, creates one (shown once) and revokes it.
    await page.getByTestId("sign-out").click();
    await page.getByTestId("signin-key").fill(TOKEN);
    await page.getByTestId("signin-submit").click();
    await page.getByTestId("settings-menu").click();
    await page.getByTestId("open-access").click();
    await expect(page.getByTestId("access-page")).toBeVisible();
    await expect(page.getByTestId("key-item")).toHaveCount(2);
    await page.getByTestId("key-name").fill("Support bot");
    await page.getByTestId("key-role").selectOption("runner");
    await page.getByTestId("key-create").click();
    await expect(page.getByTestId("key-secret")).toHaveText(/^wdl_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    await expect(page.getByTestId("key-item")).toHaveCount(3);
    await saveScreenshot(page, "access-page");
    const bot = page.getByTestId("key-item").filter({ hasText: "Support bot" });
    await bot.getByTestId("key-revoke").click();
    await expect(bot).toContainText("revoked");
  } finally {
    await server.stop();
  }
});

test("an editor approves a pause: the run's events and its timeline name the approver", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const server = await startServer({ WADDLE_TOKEN: TOKEN });
  try {
    const editor = await createKey(server.url, { name: "Ed Editor", role: "editor" });
    await page.goto(`${server.url}/#/agents/email-approval`);
    await page.getByTestId("signin-key").fill(editor);
    await page.getByTestId("signin-submit").click();
    await expect(page.getByTestId("whoami")).toHaveText(/Ed Editor · editor/);
    await expect(page.getByTestId("save-status")).toHaveText(/^Saved · v\d+$/);

    await page.getByTestId("run-button").click();
    await page.getByTestId("run-query").fill("Email Dana that the Q3 report is ready for review");
    await page.getByTestId("run-start").click();
    await expect(page.getByTestId("run-status")).toHaveText("paused", { timeout: 20_000 });
    const runId = await page.getByTestId("run-summary").getAttribute("data-run-id");
    const card = page.getByTestId("approval-card");
    await card.getByTestId("approval-note").fill("Checked the address");
    await card.getByTestId("approve-button").click();
    await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });

    // The decision carries its decider in the run's events…
    const answer = await fetch(`${server.url}/api/runs/${runId}/events`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const { events } = (await answer.json()) as { events: { type: string; data: Record<string, unknown> }[] };
    expect(events.filter((event) => event.type === "resumed").map((event) => event.data)).toEqual([
      expect.objectContaining({ decision: "approve", actor: "Ed Editor", note: "Checked the address" }),
    ]);
    // …and the timeline says who approved.
    const approved = page.locator("[data-testid='run-timeline-entry'][data-status='approved']");
    await approved.scrollIntoViewIfNeeded();
    await expect(approved).toContainText("Approved by Ed Editor: send_email");
    await saveScreenshot(page, "access-approved-by");

    // The audit log has the same decision, for an admin.
    const audit = await fetch(`${server.url}/api/audit?action=run.decision`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const { entries } = (await audit.json()) as { entries: { actor: string; target: { id: string } }[] };
    expect(entries).toEqual([
      expect.objectContaining({ actor: "Ed Editor", target: expect.objectContaining({ id: runId }) }),
    ]);
  } finally {
    await server.stop();
  }
});
