import { fixtureReply } from "@waddle/planner/testing";
import { expect, test } from "./fixtures.js";
import { openDesigner, toolNode } from "./designer-helpers.js";
import { getFixtureLlm, scriptFixture } from "./llm-fixture.js";
import {
  attachScreenshot,
  createAgent,
  getUniqueId,
  startRunOverRest,
  waitForRunStatus,
} from "./runs-helpers.js";

test("a run going in circles: the canvas marks the tool stuck, the timeline says why, settings edit it", async ({
  page,
  request,
}, testInfo) => {
  const id = getUniqueId("stuck-docs");
  await createAgent(request, {
    version: 1,
    id,
    name: "Docs desk, looping",
    llm: getFixtureLlm(),
    planner: { stuck: { enabled: true, repeats: 3, action: "finish" } },
    tools: [
      {
        name: "search_docs",
        desc: "Searches the docs.",
        sideEffects: "read",
        argsSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
        impl: { kind: "mock", latencyMs: 10, output: { hits: ["Refunds take 5 days."] } },
      },
      {
        name: "open_ticket",
        desc: "Opens a support ticket.",
        sideEffects: "write",
        argsSchema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
        impl: { kind: "mock", output: { ticket: "T-1" } },
      },
    ],
  });
  const search = fixtureReply.json({ next_node: "search_docs", args: { q: "refund" } });
  await scriptFixture([search, search, search, fixtureReply.finalAnswer("Refunds take 5 days.")]);
  const runId = await startRunOverRest(request, { agentId: id, query: "How long do refunds take?" });
  await waitForRunStatus(request, runId, "finished");

  await openDesigner(page, `#/agents/${id}/runs/${runId}`);
  await expect(page.getByTestId("run-summary")).toHaveAttribute("data-run-id", runId);
  const status = toolNode(page, "search_docs").getByTestId("node-run-status");
  await expect(status).toHaveAttribute("data-stuck", "finish");
  await expect(toolNode(page, "search_docs").getByTestId("node-run-stuck")).toHaveText("stuck");
  await expect(toolNode(page, "open_ticket").getByTestId("node-run-stuck")).toHaveCount(0);
  const line = page.locator("[data-testid='run-timeline-entry'][data-kind='stuck']");
  await expect(line).toContainText(
    "Stuck: search_docs called 3 times with the same arguments → finished with the best answer so far",
  );
  await line.scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, "stuck-run");

  // Back to editing: the settings hold the breaker's fields.
  await page.getByTestId("run-panel-close").click();
  await page.getByTestId("tab-settings").click();
  const section = page.getByTestId("stuck-section");
  await section.locator("summary").click();
  await expect(page.getByTestId("planner-stuck-action")).toHaveValue("finish");
  await page.getByTestId("planner-stuck-action").selectOption("pause");
  await expect(section).toContainText("Pause the run for a person");
  await section.scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, "stuck-settings");
});
