import { fixtureReply } from "@waddle/planner/testing";
import { expect, test } from "./fixtures.js";
import { getFixtureLlm, scriptFixture } from "./llm-fixture.js";
import {
  attachScreenshot,
  createAgent,
  getUniqueId,
  openAgent,
  startRunOverRest,
  waitForRunStatus,
} from "./runs-helpers.js";

const QUERY = "Can order 1042 ship today?";
/** Every completion reports the same usage, so that tokens differ by the calls made. */
const usage = { usage: { prompt_tokens: 100, completion_tokens: 20 } };
const lookup = fixtureReply.json({ next_node: "lookup_order", args: { order: "1042" } }, usage);
const stock = fixtureReply.json({ next_node: "check_stock", args: { sku: "A-7" } }, usage);

test("two runs of one agent compare side by side: where they part and what B cost more", async ({
  page,
  request,
}, testInfo) => {
  const id = getUniqueId("compare-orders");
  const tool = (name: string, arg: string) => ({
    name,
    desc: `Tool ${name}.`,
    argsSchema: { type: "object", properties: { [arg]: { type: "string" } }, required: [arg] },
    impl: { kind: "mock", latencyMs: 50, output: { ok: true } },
  });
  await createAgent(request, {
    version: 1,
    id,
    name: "Orders, compared",
    llm: getFixtureLlm(),
    tools: [tool("lookup_order", "order"), tool("check_stock", "sku")],
  });
  // A answers after the lookup; B checks the stock too: the same first step, then they part
  await scriptFixture([lookup, fixtureReply.finalAnswer("It ships today.", usage)]);
  const first = await startRunOverRest(request, { agentId: id, query: QUERY });
  await waitForRunStatus(request, first, "finished");
  await scriptFixture([lookup, stock, fixtureReply.finalAnswer("It ships today; A-7 is in stock.", usage)]);
  const second = await startRunOverRest(request, { agentId: id, query: QUERY });
  await waitForRunStatus(request, second, "finished");

  await openAgent(page, id);
  await page.getByTestId("run-button").click();
  await page.getByTestId("run-tab-history").click();
  const items = page.getByTestId("run-history-item");
  await expect(items).toHaveCount(2);
  for (const runId of [first, second])
    await page
      .locator(`[data-testid='run-history-item'][data-run-id='${runId}']`)
      .getByTestId("run-history-pick")
      .check();
  await page.getByTestId("run-compare-button").click();

  const compare = page.getByTestId("run-compare");
  await expect(compare).toBeVisible();
  // A is the older run
  const heads = compare.locator(".compare-head");
  await expect(heads).toHaveCount(2);
  await expect(heads.nth(0)).toHaveAttribute("data-run-id", first);
  await expect(heads.nth(1)).toHaveAttribute("data-run-id", second);
  await expect(compare.getByTestId("compare-summary")).toHaveText(
    "Same path for 1 step; they part at step 2.",
  );
  const divergence = compare.getByTestId("compare-divergence");
  await expect(divergence).toHaveCount(1);
  await expect(divergence).toContainText("final_response");
  await expect(divergence).toContainText("check_stock");
  // B made one more LLM call and one more tool call: 120 more tokens
  await expect(compare.getByTestId("compare-delta-llmCalls")).toHaveText("+1");
  await expect(compare.getByTestId("compare-delta-hops")).toHaveText("+1");
  await expect(compare.getByTestId("compare-delta-tokens")).toHaveText("+120");
  await expect(compare.getByTestId("compare-delta-steps")).toHaveText("+1");
  await attachScreenshot(page, testInfo, "runs-compare");
});
