import { expect, test } from "./fixtures.js";
import { toolNode } from "./designer-helpers.js";
import {
  attachScreenshot,
  createAgent,
  getRunEvents,
  getUniqueId,
  openAgent,
  startRunFromDesigner,
  waitForRunStatus,
} from "./runs-helpers.js";

/** The MCP fixture (global setup's WADDLE_MCP_SERVERS) asks a person during `confirm` and lists a task-only `reindex`. */
const SERVER = "fixture";

test("an MCP server's question pauses the run; the person answers it in the run panel and the server gets the answer", async ({
  page,
  request,
}, testInfo) => {
  const id = getUniqueId("e2e-mcp-ask");
  await createAgent(request, {
    version: 1,
    id,
    name: "Refunds",
    tools: [
      {
        name: "confirm",
        desc: "Refund after a person confirms",
        impl: { kind: "mcp", server: SERVER, tool: "confirm" },
      },
    ],
  });
  await openAgent(page, id);

  // the palette lists the task-only tool with its reason, and offers no entry to drag
  await page.getByTestId("tab-palette").click();
  const section = page.getByTestId(`palette-mcp-server-${SERVER}`);
  await expect(section).toHaveAttribute("data-status", "connected");
  await expect(section.getByTestId(`palette-mcp-unavailable-${SERVER}-reindex`)).toContainText("MCP task");
  await expect(section.getByTestId(`palette-mcp-${SERVER}-reindex`)).toHaveCount(0);
  await section.getByTestId(`palette-mcp-unavailable-${SERVER}-reindex`).scrollIntoViewIfNeeded();
  await attachScreenshot(page, testInfo, "mcp-palette-unavailable");

  const runId = await startRunFromDesigner(page, "Refund order 42");
  await expect(page.getByTestId("run-status")).toHaveText("paused", { timeout: 20_000 });
  const card = page.getByTestId("approval-card");
  const question = card.getByTestId("approval-elicitation");
  await expect(question).toContainText("fixture asks: Refund 20 EUR?");
  await expect(question).toContainText("approve (required): Make the refund");
  await expect(card.getByTestId("approval-note")).toHaveAttribute(
    "placeholder",
    '{"approve": …, "reason": …}',
  );
  await attachScreenshot(page, testInfo, "mcp-elicitation-pause");

  // an answer that does not fit the form pauses again, saying why
  await card.getByTestId("approval-note").fill('{"reason": "damaged"}');
  await card.getByTestId("approve-button").click();
  await expect(card.getByRole("alert")).toContainText('"approve" is required', { timeout: 20_000 });
  await attachScreenshot(page, testInfo, "mcp-elicitation-problem");

  await card.getByTestId("approval-note").fill('{"approve": true, "reason": "damaged"}');
  await card.getByTestId("approve-button").click();
  await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });
  await expect(toolNode(page, "confirm")).toHaveAttribute("data-run-state", "succeeded");
  await waitForRunStatus(request, runId, "finished");
  const ends = (await getRunEvents(request, runId)).filter((event) => event.type === "tool_end");
  expect(ends.at(-1)?.data).toMatchObject({ observation: { text: "refunded 20 EUR: damaged" } });
});
