import { execFileSync } from "node:child_process";
import { expect, test } from "./fixtures.js";
import {
  attachScreenshot,
  createAgent,
  getChainSpec,
  getRun,
  getUniqueId,
  openAgent,
} from "./runs-helpers.js";

test("a schedule made in the Triggers panel fires every 10 seconds and its runs show in History live", async ({
  page,
  request,
}, testInfo) => {
  const agentId = getUniqueId("triggered");
  await createAgent(request, getChainSpec({ id: agentId, tools: ["check_queue"], latencyMs: 20 }));
  await openAgent(page, agentId);

  // the agent's overview in the inspector says it has no trigger yet, and opens the panel
  await expect(page.getByTestId("agent-triggers")).toContainText("none");
  await page.getByTestId("triggers-open").click();
  const dialog = page.getByTestId("triggers-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("trigger-new").click();
  await dialog.getByTestId("trigger-kind").selectOption("schedule");
  // a new schedule starts in the browser's time zone
  const timezone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  await expect(dialog.getByTestId("trigger-timezone")).toHaveValue(timezone);
  // said as one types: more often than every 10 seconds is refused before anything is sent
  await dialog.getByTestId("trigger-cron").fill("*/5 * * * * *");
  await expect(dialog.getByRole("alert")).toContainText("at most every 10 seconds");
  await dialog.getByTestId("trigger-cron").fill("*/10 * * * * *");
  await dialog.getByTestId("trigger-name").fill("Queue check");
  await dialog.getByTestId("trigger-query").fill("Check the queue");
  await dialog.getByTestId("trigger-save").click();

  const item = dialog.getByTestId("trigger-item");
  await expect(item).toHaveCount(1);
  await expect(item).toHaveAttribute("data-kind", "schedule");
  const triggerId = await item.getAttribute("data-trigger-id");
  expect(triggerId).toMatch(/^trg_/);
  // the next five fire times, from the server, 10 seconds apart
  const fires = dialog.getByTestId("trigger-next-fires").locator("time");
  await expect(fires).toHaveCount(5);
  const times = await fires.evaluateAll((nodes) =>
    nodes.map((node) => Date.parse(node.getAttribute("datetime")!)),
  );
  expect(times.slice(1).map((time, index) => time - times[index]!)).toEqual([10_000, 10_000, 10_000, 10_000]);
  await attachScreenshot(page, testInfo, "triggers-schedule");

  // a webhook beside it: its URL, the secret once, and a curl example that works as shown
  await dialog.getByTestId("trigger-new").click();
  await dialog.getByTestId("trigger-kind").selectOption("webhook");
  await dialog.getByTestId("trigger-name").fill("New ticket");
  await dialog.getByTestId("trigger-query").fill("New ticket: {{body.subject}}");
  await dialog.getByTestId("trigger-save").click();
  await expect(dialog.getByTestId("trigger-item")).toHaveCount(2);
  await expect(dialog.getByTestId("trigger-secret")).not.toBeEmpty();
  await expect(dialog.getByTestId("trigger-url")).toHaveText(/\/hooks\/trg_/);
  const curl = await dialog.getByTestId("trigger-curl").textContent();
  expect(curl).toContain("openssl dgst -sha256 -hmac");
  await attachScreenshot(page, testInfo, "triggers-webhook");
  const answer = JSON.parse(execFileSync("sh", ["-c", `${curl} --silent`], { encoding: "utf8" })) as {
    runId: string;
  };
  expect((await getRun(request, answer.runId)).trigger).toMatchObject({ kind: "webhook" });

  // History, filtered to the schedule: its fired runs come in without a reload
  await dialog.getByRole("button", { name: "Close" }).click();
  await page.getByTestId("run-button").click();
  await page.getByTestId("run-tab-history").click();
  await expect(page.getByTestId("run-history")).toBeVisible();
  await page.getByTestId("run-history-trigger-filter").selectOption(triggerId!);
  const fired = page.locator(`[data-testid="run-history-item"][data-trigger-id="${triggerId}"]`);
  await expect(fired.first()).toBeVisible({ timeout: 25_000 });
  const seen = await fired.count();
  // the next tick's run arrives live too, and only the schedule's runs are listed
  await expect(fired).toHaveCount(seen + 1, { timeout: 25_000 });
  await expect(page.getByTestId("run-history-item")).toHaveCount(seen + 1);
  await expect(fired.first().getByTestId("run-history-trigger-tag")).toHaveText("schedule");
  await attachScreenshot(page, testInfo, "triggers-history");

  // the panel (opened from History too) lists the last fires with links to their runs; turned off, it stops
  await page.getByTestId("history-triggers-open").click();
  await dialog.locator(`[data-testid="trigger-item"][data-trigger-id="${triggerId}"]`).click();
  await expect(dialog.getByTestId("trigger-fires").getByTestId("trigger-fire-run").first()).toBeVisible();
  await dialog.getByTestId("trigger-toggle").click();
  await expect(dialog.getByTestId("trigger-state")).toHaveText("Off");
  await dialog.getByTestId("trigger-delete").click();
  await dialog.getByTestId("trigger-delete-confirm").click();
  await expect(dialog.getByTestId("trigger-item")).toHaveCount(1);
});
