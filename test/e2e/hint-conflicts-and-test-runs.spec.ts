import { expect, test } from "./fixtures.js";
import { toolNode } from "./designer-helpers.js";
import {
  attachScreenshot,
  createAgent,
  getAgentSpec,
  getUniqueId,
  openAgent,
  startRunOverRest,
  waitForRunStatus,
} from "./runs-helpers.js";

test("a tool that ordering hints require and disallow_nodes forbids is an error on the canvas, with what to change", async ({
  page,
  request,
}, testInfo) => {
  const id = getUniqueId("hint-conflict");
  await createAgent(request, {
    version: 1,
    id,
    name: "Hint conflict",
    llm: { provider: "offline", model: "offline" },
    tools: ["fetch", "check", "report"].map((name) => ({
      name,
      desc: `Step ${name}`,
      impl: { kind: "mock", output: { done: name } },
    })),
    hints: { ordering_hints: ["fetch", "check", "report"] },
  });
  await openAgent(page, id);
  await expect(page.getByTestId("issues-count")).toHaveText("Valid");

  // disallow a tool the ordering hints require: every run would pause on it, so it is an error now
  await page.getByTestId("tab-hints").click();
  await page.getByTestId("hint-disallow_nodes-check").check();
  await expect(page.getByTestId("issues-count")).toHaveAttribute("data-errors", "1");
  await page.getByTestId("issues-count").click();
  const row = page.getByTestId("issue-row-0");
  await expect(row).toContainText(
    "ordering_hints requires check, which disallow_nodes forbids: every run would pause on this conflict. Take check out of ordering_hints or out of disallow_nodes.",
  );
  await expect(row).toContainText("$.hints.ordering_hints[1]");
  await expect(toolNode(page, "check")).toHaveClass(/is-disallowed/);
  await attachScreenshot(page, testInfo, "hint-conflict-issue");

  // taken back, the agent is valid again
  await page.getByTestId("tab-hints").click();
  await page.getByTestId("hint-disallow_nodes-check").uncheck();
  await expect(page.getByTestId("issues-count")).toHaveText("Valid");
});

test("a suite whose cases pause leaves no active runs in History; Show test runs lists them, ended", async ({
  page,
  request,
}, testInfo) => {
  // the example that asks for approval before sending, under an id of its own
  const id = getUniqueId("approval-tests");
  await createAgent(request, {
    ...(await getAgentSpec(request, "email-approval")),
    id,
    name: "Approval, tested",
  });
  const query = "Email Dana that the Q3 report is ready for review";
  const sourceRunId = await startRunOverRest(request, { agentId: id, query });
  await waitForRunStatus(request, sourceRunId, "paused");
  const saved = await request.post(`/api/agents/${id}/tests`, { data: { fromRunId: sourceRunId } });
  expect(saved.status(), await saved.text()).toBe(201);
  const testCase = (await saved.json()) as { id: string; name: string; expect: Record<string, unknown> };
  // a second case that expects the run to finish: it cannot, since nobody approves the send
  const put = await request.put(`/api/agents/${id}/tests`, {
    data: {
      cases: [
        testCase,
        {
          ...testCase,
          id: "expects-finish",
          name: "Expects it to finish",
          expect: { ...testCase.expect, status: "finished" },
        },
      ],
    },
  });
  expect(put.status(), await put.text()).toBe(200);

  await openAgent(page, id);
  await page.getByTestId("run-button").click();
  await page.getByTestId("run-tab-history").click();
  const history = page.getByTestId("run-history");
  await expect(history.getByTestId("run-history-item")).toHaveCount(1);

  // run the suite from the Tests tab: one case passes on the pause, the other fails saying on what
  await page.getByTestId("tests-tab").click();
  await page.getByTestId("tests-run").click();
  await expect(page.getByTestId("tests-summary")).toHaveAttribute("data-status", "failed");
  const failing = page.getByTestId("test-case-item").filter({ hasText: "Expects it to finish" });
  const failure = failing.locator("[data-testid='test-failure'][data-check='status']");
  await expect(failure).toContainText(
    'The run paused for approval before calling send_email (it requires approval), expected "finished".',
  );
  await failure.scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, "tests-paused-case");

  // History: still only the real run; the cases' runs were ended, and show when asked for
  await page.getByTestId("run-tab-history").click();
  const items = history.getByTestId("run-history-item");
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute("data-run-id", sourceRunId);
  await expect(history.getByTestId("run-history-filter-active")).toContainText("1");
  await history.getByTestId("run-history-show-tests").check();
  await expect(items).toHaveCount(3);
  await expect(history.getByTestId("run-history-test-tag")).toHaveCount(2);
  const testItems = items.filter({ has: page.getByTestId("run-history-test-tag") });
  for (const item of await testItems.all()) await expect(item).toHaveAttribute("data-status", "cancelled");
  await expect(history.getByTestId("run-history-filter-active")).toContainText("1");
  await attachScreenshot(page, testInfo, "history-show-test-runs");
  await history.getByTestId("run-history-show-tests").uncheck();
  await expect(items).toHaveCount(1);
  await request.post(`/api/runs/${sourceRunId}/cancel`);
});
