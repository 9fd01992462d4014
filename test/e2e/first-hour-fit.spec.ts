import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures.js";
import { saveScreenshot } from "./designer-helpers.js";
import {
  createAgent,
  getAgentSpec,
  getUniqueId,
  openAgent,
  startRunOverRest,
  waitForRunStatus,
} from "./runs-helpers.js";

/** How far the page and the run panel (when shown) scroll sideways: 0 when everything fits. */
async function getSidewaysScroll(page: Page): Promise<{ page: number; panel: number }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const panel = document.querySelector<HTMLElement>("[data-testid=run-panel]");
    return {
      page: root.scrollWidth - root.clientWidth,
      panel: panel ? panel.scrollWidth - panel.clientWidth : 0,
    };
  });
}

async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  expect(await getSidewaysScroll(page), where).toEqual({ page: 0, panel: 0 });
}

/** Every tab of the run panel ends inside the panel (none is clipped, as "Tests" was). */
async function expectTabsInside(page: Page): Promise<void> {
  const panel = await page.getByTestId("run-panel").boundingBox();
  for (const testId of ["run-tab-run", "chat-tab", "run-tab-history", "run-tab-compare", "tests-tab"]) {
    const tab = await page.getByTestId(testId).boundingBox();
    expect(tab, testId).not.toBeNull();
    expect(tab!.x + tab!.width, testId).toBeLessThanOrEqual(panel!.x + panel!.width);
  }
}

/** A copy of support-triage (3 offline tools), with one finished run and one chat of one turn. */
async function createFixture(request: APIRequestContext): Promise<{ id: string; runId: string }> {
  const id = getUniqueId("fit");
  await createAgent(request, { ...(await getAgentSpec(request, "support-triage")), id, name: "Fit check" });
  const runId = await startRunOverRest(request, {
    agentId: id,
    query: "My invoice shows a duplicate charge",
  });
  await waitForRunStatus(request, runId, "finished");
  const second = await startRunOverRest(request, { agentId: id, query: "How do I reset two-factor?" });
  await waitForRunStatus(request, second, "finished");
  const session = await request.post("/api/sessions", { data: { agentId: id } });
  expect(session.status()).toBe(201);
  const { sessionId } = (await session.json()) as { sessionId: string };
  const turn = await request.post(`/api/sessions/${sessionId}/turns`, { data: { query: "Hello there" } });
  expect(turn.status()).toBe(202);
  await waitForRunStatus(request, ((await turn.json()) as { runId: string }).runId, "finished");
  return { id, runId };
}

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
]) {
  test(`at ${viewport.width}×${viewport.height} nothing scrolls sideways: editor, run, chat, history, tests`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const { id, runId } = await createFixture(request);
    const size = viewport.width;

    await openAgent(page, id);
    await expectNoSidewaysScroll(page, "editor");

    // Settings is a labelled menu: Credentials and Access are named, not a lock and a key to hover over.
    const settings = page.getByTestId("settings-menu");
    await expect(settings).toHaveText(/Settings/);
    await settings.click();
    await expect(page.getByRole("menuitem", { name: "Credentials" })).toBeVisible();
    await expect(page.getByTestId("open-credentials")).toContainText("LLM keys, secrets and allowed hosts");
    await expect(page.getByTestId("open-access")).toContainText("API keys and roles");
    await expectNoSidewaysScroll(page, "settings menu");
    await saveScreenshot(page, `first-hour-settings-menu-${size}`);
    // the keyboard: the first item takes the focus, arrows move it, Escape gives it back to the button
    await expect(page.getByTestId("open-credentials")).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByTestId("open-access")).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("open-credentials")).toBeHidden();
    await expect(settings).toBeFocused();
    await expect(page.getByTestId("use-agent")).toHaveText(/Use/);
    await page
      .locator(".app-header")
      .screenshot({ path: `test/e2e/artifacts/first-hour-header-${size}.png` });

    // A finished run, replayed from its link.
    await page.goto(`/#/agents/${id}/runs/${runId}`);
    await expect(page.getByTestId("run-summary")).toHaveAttribute("data-run-id", runId);
    await expectTabsInside(page);
    await expectNoSidewaysScroll(page, "run");
    await page
      .locator(".run-panel-head, .run-panel > .tabs")
      .first()
      .screenshot({ path: `test/e2e/artifacts/first-hour-run-head-${size}.png` });
    await page
      .locator(".run-panel > .tabs")
      .screenshot({ path: `test/e2e/artifacts/first-hour-tabs-${size}.png` });
    await saveScreenshot(page, `first-hour-run-${size}`);

    await page.getByTestId("chat-tab").click();
    await page.getByTestId("chat-session-item").first().click();
    await expect(page.getByTestId("chat-turn")).toHaveCount(1);
    await expectNoSidewaysScroll(page, "chat");
    await saveScreenshot(page, `first-hour-chat-${size}`);

    await page.getByTestId("run-tab-history").click();
    // two runs and the chat's turn
    await expect(page.getByTestId("run-history-item")).toHaveCount(3);
    await expectNoSidewaysScroll(page, "history");
    // the figures' labels keep apart, with room between them ("LLM CALLSTOKENS" ran together)
    const labels = await page
      .getByTestId("run-history-item")
      .first()
      .locator(".run-metric-label")
      .evaluateAll((elements) =>
        elements.map((element) => {
          const range = document.createRange();
          range.selectNodeContents(element);
          const text = range.getBoundingClientRect();
          return { text: element.textContent ?? "", left: text.left, right: text.right };
        }),
      );
    expect(labels.map((label) => label.text)).toEqual(["Duration", "Steps", "LLM calls", "Tokens", "Cost"]);
    for (const [index, label] of labels.slice(0, -1).entries())
      expect(labels[index + 1]!.left - label.right, `space after ${label.text}`).toBeGreaterThanOrEqual(6);
    await saveScreenshot(page, `first-hour-history-${size}`);

    await page.getByTestId("tests-tab").click();
    await expect(page.getByTestId("tests-panel")).toBeVisible();
    await expectNoSidewaysScroll(page, "tests");
    await saveScreenshot(page, `first-hour-tests-${size}`);
  });
}
