import { expect, test } from "./fixtures.js";
import { ORDERS_QUERY, recordOrdersRun } from "./orders-agent.js";
import { openDesigner, save, selectTool, toolNode } from "./designer-helpers.js";
import { attachScreenshot, getUniqueId } from "./runs-helpers.js";

test("save a run as a test, run the suite, break the agent, see the case fail in words, compare the two test runs", async ({
  page,
  request,
}, testInfo) => {
  const id = getUniqueId("tests-orders");
  // The only live model calls of the spec: the run saved as the test. The test runs replay its replies.
  const runId = await recordOrdersRun(request, { id, name: "Orders, tested" });

  // Save as test on the finished run (opened as from History), and the note says where it went.
  await openDesigner(page, `#/agents/${id}/runs/${runId}`);
  await expect(page.getByTestId("run-summary")).toHaveAttribute("data-run-id", runId);
  await page.getByTestId("save-as-test").click();
  await expect(page.getByTestId("save-as-test-saved")).toContainText("case 1 of the suite in the Tests tab");
  await attachScreenshot(page, testInfo, "tests-save-as-test");
  await page.getByTestId("save-as-test-open").click();
  await expect(page.getByTestId("tests-tab")).toHaveAttribute("aria-selected", "true");
  const item = page.getByTestId("test-case-item");
  await expect(item).toHaveCount(1);
  await expect(item).toContainText(ORDERS_QUERY);
  await expect(item).toContainText("ends finished");
  await expect(item).toContainText("tools lookup_order → check_stock (exactly)");

  // Run the suite on v1: it passes, with its numbers.
  await expect(page.getByTestId("tests-version")).toHaveValue("1");
  await page.getByTestId("tests-run").click();
  const result = item.getByTestId("test-result");
  await expect(result).toHaveAttribute("data-status", "passed");
  await expect(result).toContainText("3 model calls");
  await expect(page.getByTestId("tests-summary")).toHaveAttribute("data-status", "passed");

  // Break the agent: check_stock goes, and v2 is saved from the designer.
  await page.getByTestId("run-panel-close").click();
  await selectTool(page, "check_stock");
  await page.keyboard.press("Delete");
  await expect(toolNode(page, "check_stock")).toHaveCount(0);
  await save(page, 2);

  // Run the suite again, on the new version: the case fails and says why in words.
  await page.getByTestId("run-button").click();
  await page.getByTestId("tests-tab").click();
  await expect(page.getByTestId("tests-version")).toHaveValue("2");
  await page.getByTestId("tests-run").click();
  await expect(result).toHaveAttribute("data-status", "failed");
  const trajectory = result.locator("[data-testid='test-failure'][data-check='trajectory.exact']");
  await expect(trajectory).toContainText(
    "Expected tool check_stock to be called after lookup_order, but the run called no more tools.",
  );
  await expect(trajectory).toContainText("Expectedlookup_order → check_stock");
  await expect(trajectory).toContainText("Actuallookup_order");
  await expect(page.getByTestId("tests-summary")).toHaveAttribute("data-status", "failed");
  await attachScreenshot(page, testInfo, "tests-tab");

  // Compare the two test runs: A is v1 (all passed), B is v2 (the case newly failing).
  await expect(page.getByTestId("tests-compare-left")).toContainText("v1");
  await page.getByTestId("tests-compare").click();
  const compare = page.getByTestId("tests-compare-view");
  await expect(compare).toContainText("A: v1 · B: v2");
  await expect(compare.getByTestId("tests-compare-pass-rate")).toContainText("100% (1/1)");
  await expect(compare.getByTestId("tests-compare-pass-rate")).toContainText("0% (0/1)");
  await expect(compare.getByTestId("tests-compare-pass-rate")).toContainText("-100 pts");
  await expect(compare.getByTestId("tests-compare-counts")).toContainText(
    "1 newly failing · 0 fixed · 0 same",
  );
  await expect(compare.getByTestId("tests-compare-case")).toHaveAttribute("data-change", "newly_failing");
  await compare.scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, "tests-compare");

  // The failed case's run opens on the canvas.
  const record = (await (await request.get(`/api/agents/${id}/test-runs`)).json()) as {
    testRuns: { id: string }[];
  };
  const latest = (await (await request.get(`/api/test-runs/${record.testRuns[0]!.id}`)).json()) as {
    cases: { runId: string }[];
  };
  await result.getByTestId("test-result-open").click();
  await expect(page.getByTestId("run-summary")).toHaveAttribute("data-run-id", latest.cases[0]!.runId);
  await expect(toolNode(page, "lookup_order")).toBeVisible();

  // Edit what the case checks, as JSON: a value the schema refuses is said with its path, then saved.
  await page.getByTestId("tests-tab").click();
  await item.getByTestId("test-case-edit").click();
  const json = item.getByTestId("test-case-expect-json");
  await expect(json).toHaveValue(/"order": "exact"/);
  await json.fill('{"status": "finished", "trajectory": {"tools": ["lookup_order"], "order": "sideways"}}');
  await item.getByTestId("test-case-expect-save").click();
  await expect(item.getByTestId("test-case-expect-error")).toContainText("trajectory.order");
  await json.fill('{"status": "finished", "trajectory": {"tools": ["lookup_order"], "order": "subset"}}');
  await attachScreenshot(page, testInfo, "tests-edit-checks");
  await item.getByTestId("test-case-expect-save").click();
  await expect(json).toBeHidden();
  await expect(item).toContainText("Expects ends finished · tools lookup_order (at least)");
  const edited = (await (await request.get(`/api/agents/${id}/tests`)).json()) as {
    cases: { expect: unknown }[];
  };
  expect(edited.cases[0]!.expect).toEqual({
    status: "finished",
    trajectory: { tools: ["lookup_order"], order: "subset" },
  });

  // Delete the case: the suite is empty again.
  await item.getByTestId("test-case-delete").click();
  await item.getByTestId("test-case-delete-confirm").click();
  await expect(page.getByTestId("test-case-item")).toHaveCount(0);
  await expect(page.getByTestId("tests-empty")).toBeVisible();
  const suite = (await (await request.get(`/api/agents/${id}/tests`)).json()) as { cases: unknown[] };
  expect(suite.cases).toEqual([]);
});
