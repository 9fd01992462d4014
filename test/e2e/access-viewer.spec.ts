import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures.js";
import { saveScreenshot, startServer, toolNode } from "./designer-helpers.js";

const TOKEN = "e2e-viewer-token-0123456789abcdef";

/** A request to the test server as its WADDLE_TOKEN (the bootstrap admin). */
async function asAdmin(url: string, method: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.ok, `${method} ${url}: ${response.status}`).toBe(true);
  return (await response.json()) as Record<string, unknown>;
}

/** Waits (polling the run, never for a duration) until the run reaches `status`. */
async function waitForRun(url: string, runId: string, status: string): Promise<void> {
  await expect
    .poll(async () => (await asAdmin(`${url}/api/runs/${runId}`, "GET"))["status"], { timeout: 20_000 })
    .toBe(status);
}

/** Disabled, with the permission it lacks in its tooltip (its own or its fieldset's). */
async function expectDeniedFor(control: Locator, permission: RegExp, label: string): Promise<void> {
  await expect(control, label).toBeDisabled();
  const title = await control.evaluate((element) => element.closest("[title]")?.getAttribute("title") ?? "");
  expect(title, label).toMatch(permission);
}

test("a viewer reads everything, changes nothing: every editing control off with its reason; History, replay and chats open", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const server = await startServer({ WADDLE_TOKEN: TOKEN });
  try {
    const { key: viewer } = (await asAdmin(`${server.url}/api/keys`, "POST", {
      name: "Vera Viewer",
      role: "viewer",
    })) as { key: string };
    // an admin's runs for the viewer to read: one that ended, one paused for approval, and a chat
    const ended = (await asAdmin(`${server.url}/api/runs`, "POST", {
      agentId: "support-triage",
      query: "My invoice shows a duplicate charge for March",
    })) as { runId: string };
    await waitForRun(server.url, ended.runId, "finished");
    const paused = (await asAdmin(`${server.url}/api/runs`, "POST", {
      agentId: "email-approval",
      query: "Email Dana that the Q3 report is ready for review",
    })) as { runId: string };
    await waitForRun(server.url, paused.runId, "paused");
    const { sessionId } = (await asAdmin(`${server.url}/api/sessions`, "POST", {
      agentId: "support-triage",
    })) as { sessionId: string };
    const turn = (await asAdmin(`${server.url}/api/sessions/${sessionId}/turns`, "POST", {
      query: "My order #1234 never arrived",
    })) as { runId: string };
    await waitForRun(server.url, turn.runId, "finished");

    await page.goto(`${server.url}/#/agents/email-approval`);
    await page.getByTestId("signin-key").fill(viewer);
    await page.getByTestId("signin-submit").click();
    await expect(page.getByTestId("whoami")).toHaveText(/Vera Viewer · viewer/);
    await expect(page.getByTestId("save-status")).toHaveText(/^Saved · v\d+$/);

    // The design: Save, the toolbar's edits, the palette and the inspector are off, each saying why.
    await expectDeniedFor(page.getByTestId("save-button"), /agents:write/, "save");
    await expectDeniedFor(page.getByTestId("command-undo"), /agents:write/, "undo");
    await expectDeniedFor(page.getByTestId("command-auto-layout"), /agents:write/, "auto-layout");
    await expectDeniedFor(page.getByTestId("new-agent"), /agents:write/, "new agent");
    await toolNode(page, "send_email").locator(".tool-name").click();
    await expect(page.getByTestId("tool-inspector")).toBeVisible();
    await expect(page.getByTestId("read-only-note")).toContainText("Read only");
    await expect(page.getByTestId("read-only-note")).toContainText("agents:write");
    for (const testId of ["tool-name-input", "side-effect-read", "tool-test-button"]) {
      await expectDeniedFor(page.getByTestId(testId), /agents:write|tools:test/, testId);
    }
    // every control of the inspector, down to a schema field's details, is off with a reason
    const controls = page.getByTestId("tool-inspector").locator("input, textarea, select, button");
    expect(await controls.count()).toBeGreaterThan(10);
    for (const [index, control] of (await controls.all()).entries()) {
      await expectDeniedFor(
        control,
        /may not do this: it needs "(agents:write|tools:test)"/,
        `control ${index}`,
      );
    }
    // nothing a viewer does makes the page unsaved: Delete on the selected tool, N (a new mock tool)
    await page.keyboard.press("Delete");
    await page.keyboard.press("n");
    await expect(toolNode(page, "send_email")).toBeVisible();
    await expect(page.locator("[data-testid^='tool-node-']")).toHaveCount(3);
    await expect(page.getByTestId("save-status")).toHaveText(/^Saved · v\d+$/);
    await page.getByTestId("tab-palette").click();
    await expectDeniedFor(page.getByTestId("palette-new-mock"), /agents:write/, "palette");
    await saveScreenshot(page, "access-viewer-inspector");

    // Run is off (runs:start); History opens the run panel without starting a run.
    await expectDeniedFor(page.getByTestId("run-button"), /runs:start/, "run");
    await page.getByTestId("open-run-history").click();
    await expect(page.getByTestId("run-history")).toBeVisible();
    await saveScreenshot(page, "access-viewer-history");
    const pausedItem = page.locator(`[data-testid='run-history-item'][data-run-id='${paused.runId}']`);
    await pausedItem.locator(".run-history-open").click();
    await expect(page.getByTestId("run-status")).toHaveText("paused");

    // On the paused run: the on-canvas decision, the panel's, Cancel run and Fork are off, saying why.
    const sendEmail = toolNode(page, "send_email");
    await expect(sendEmail).toHaveAttribute("data-run-state", "awaiting_approval");
    for (const testId of ["node-approve-button", "node-reject-button", "node-edit-args-button"]) {
      await expectDeniedFor(sendEmail.getByTestId(testId), /runs:decide/, testId);
    }
    await expectDeniedFor(toolNode(page, "draft_email").getByTestId("fork-button"), /runs:start/, "fork");
    await expectDeniedFor(
      page.getByTestId("approval-card").getByTestId("approve-button"),
      /runs:decide/,
      "approve",
    );
    await expectDeniedFor(page.getByTestId("run-cancel"), /runs:cancel/, "cancel");
    await expectDeniedFor(page.getByTestId("approval-note"), /runs:decide/, "note");
    await expect(page.getByTestId("approval-denied")).toContainText("runs:decide");
    await expectDeniedFor(page.getByTestId("run-start"), /runs:start/, "run start");
    await expectDeniedFor(page.getByTestId("run-query"), /runs:start/, "query");
    await saveScreenshot(page, "access-viewer-paused-run");

    // Another agent: a run that ended replays on the canvas, and a chat's transcript reads.
    await page.getByTestId("tab-agents").click();
    await page.getByTestId("agent-item-support-triage").locator(".list-main").click();
    await expect(page.getByTestId("doc-name")).toHaveText("Support triage");
    await page.getByTestId("open-run-history").click();
    const endedItem = page.locator(`[data-testid='run-history-item'][data-run-id='${ended.runId}']`);
    await endedItem.locator(".run-history-open").click();
    await expect(page.getByTestId("replay-controls")).toBeVisible();
    await page.getByTestId("replay-step-back").click();
    await expect(page.getByTestId("replay-position")).toContainText("Event");
    await expect(toolNode(page, "triage")).toHaveAttribute("data-run-state", /.+/);
    await saveScreenshot(page, "access-viewer-replay");

    await page.getByTestId("chat-tab").click();
    await expectDeniedFor(page.getByTestId("chat-new"), /runs:start/, "new chat");
    await page.getByTestId("chat-session-item").first().click();
    await expect(page.getByTestId("chat-thread")).toContainText("My order #1234 never arrived");
    await saveScreenshot(page, "access-viewer-chat");
  } finally {
    await server.stop();
  }
});

test("with only WADDLE_TOKEN set, the Access page says sign-in is needed, not that none is", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const server = await startServer({ WADDLE_TOKEN: TOKEN });
  try {
    await page.goto(`${server.url}/#/settings/access`);
    await page.getByTestId("signin-key").fill(TOKEN);
    await page.getByTestId("signin-submit").click();
    await expect(page.getByTestId("access-page")).toBeVisible();
    const note = page.getByTestId("access-sign-in-note");
    await expect(note).toContainText("this server has a WADDLE_TOKEN, so everyone signs in");
    await expect(page.getByTestId("access-page")).not.toContainText("needs no sign-in");
    await saveScreenshot(page, "access-token-only");
  } finally {
    await server.stop();
  }
});
