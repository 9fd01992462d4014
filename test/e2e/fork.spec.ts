import { fixtureReply } from "@waddle/planner/testing";
import { expect, test } from "./fixtures.js";
import { recordOrdersRun } from "./orders-agent.js";
import { openDesigner, toolNode } from "./designer-helpers.js";
import { getFixtureStats, scriptFixture } from "./llm-fixture.js";
import { attachScreenshot, getRun, getRunEvents, getUniqueId, waitForRunStatus } from "./runs-helpers.js";

test("fork from a timeline entry with an edited observation, then compare with the parent", async ({
  page,
  request,
}, testInfo) => {
  const id = getUniqueId("fork-orders");
  const parentId = await recordOrdersRun(request, { id, name: "Orders, forked" });

  await openDesigner(page, `#/agents/${id}/runs/${parentId}`);
  await expect(page.getByTestId("run-summary")).toHaveAttribute("data-run-id", parentId);
  // The timeline entry of check_stock's result (step 2): Fork from here.
  const entry = page.locator("[data-testid='run-timeline-entry'][data-kind='tool'][data-tool='check_stock']");
  await entry.hover();
  await entry.getByTestId("fork-button").click();

  const dialog = page.getByTestId("fork-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Fork from step 2");
  await dialog.getByTestId("fork-edit-kind").selectOption("observation");
  // The result as a form from the tool's out schema, prefilled with what the tool returned.
  const stock = dialog.getByTestId("args-field-stock");
  await expect(stock).toHaveValue("12 left");
  await stock.fill("none left");
  await attachScreenshot(page, testInfo, "fork-dialog");
  // The same value as raw JSON.
  await dialog.getByTestId("fork-edit-json-mode").click();
  await expect(dialog.getByTestId("fork-edit-text")).toHaveValue(/"stock": "none left"/);

  // The edited result changes the next request: the model is asked once, for the answer.
  await scriptFixture([fixtureReply.finalAnswer("It cannot ship today: A-7 has none left.")]);
  const answeredBefore = (await getFixtureStats()).answered;
  await dialog.getByTestId("fork-run").click();
  await expect(dialog).toBeHidden();

  const summary = page.getByTestId("run-summary");
  await expect(summary).not.toHaveAttribute("data-run-id", parentId);
  const forkId = (await summary.getAttribute("data-run-id")) ?? "";
  await waitForRunStatus(request, forkId, "finished");
  const forkOf = page.getByTestId("run-fork-of");
  await expect(forkOf).toBeVisible();
  await expect(forkOf).toHaveAttribute("data-parent-run-id", parentId);
  await expect(forkOf).toHaveAttribute("data-step", "1");
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "finished");
  // Step 1 is the parent's, copied and dimmed; the fork's own entries are not.
  const replayed = page.locator("[data-testid='run-timeline-entry'][data-replayed='true']");
  // the copied prefix may still be folding in when the first entry shows: wait for the count, not one read
  await expect.poll(() => replayed.count()).toBeGreaterThan(1);
  await expect(replayed.first()).toHaveCSS("opacity", "0.5");
  await expect(
    page.locator("[data-testid='run-timeline-entry'][data-kind='tool'][data-tool='check_stock']"),
  ).not.toHaveAttribute("data-replayed", "true");
  // On the canvas too: lookup_order ran only in the copied prefix, check_stock in the fork.
  await expect(toolNode(page, "lookup_order").getByTestId("node-run-status")).toHaveAttribute(
    "data-replayed",
    "true",
  );
  await expect(toolNode(page, "check_stock").getByTestId("node-run-status")).not.toHaveAttribute(
    "data-replayed",
    "true",
  );
  await page.getByTestId("run-timeline").scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, "fork-run");

  const fork = await getRun(request, forkId);
  expect(fork.forkOf).toEqual({ runId: parentId, step: 1 });
  expect(fork.result?.kind === "finish" ? fork.result.payload.answer : null).toBe(
    "It cannot ship today: A-7 has none left.",
  );
  expect((await getFixtureStats()).answered).toBe(answeredBefore + 1);
  const events = await getRunEvents(request, forkId);
  const edited = events.find((event) => event.type === "tool_end" && event.replayed !== true);
  expect(edited?.data).toMatchObject({
    tool: "check_stock",
    observation: { stock: "none left" },
    edited: true,
  });

  // Compare with parent: the parent is A, the fork B, and the rows line up at the fork point.
  await page.getByTestId("compare-with-parent").click();
  const compare = page.getByTestId("run-compare");
  await expect(compare).toBeVisible();
  const heads = compare.locator(".compare-head");
  await expect(heads.nth(0)).toHaveAttribute("data-run-id", parentId);
  await expect(heads.nth(1)).toHaveAttribute("data-run-id", forkId);
  await expect(compare.getByTestId("compare-fork-point")).toContainText("forked from A at step 2");
  await expect(compare.locator("[data-fork-point='true']")).toContainText("check_stock");
  await attachScreenshot(page, testInfo, "fork-compare");
});
