import { expect, test } from "./fixtures.js";
import { openDesigner, toolNode } from "./designer-helpers.js";
import {
  getDistinctValues,
  getFirstSeen,
  getRunSamples,
  getStateSequence,
  startRunRecorder,
} from "./run-recorder.js";
import {
  attachScreenshot,
  createAgent,
  getAgentSpec,
  getAnswer,
  getRunEvents,
  getToolStarts,
  getUniqueId,
  openAgent,
  startRunFromDesigner,
  startRunOverRest,
  waitForRunStatus,
} from "./runs-helpers.js";
import { createGates } from "./gates.js";
import { paceSocketMessages } from "./socket-pacer.js";

const TOOLS = ["triage", "retrieve_docs", "summarize"] as const;
const QUERY = "My invoice shows a duplicate charge for March";

test("an example runs on the offline model from the designer: its tools light up in order and the answer grows", async ({
  page,
  request,
}, testInfo) => {
  // the support-triage example as it is, but each tool waits for the test to open its gate (answering what
  // the example's mock answers), so every step is watched live however slow the machine is
  const id = getUniqueId("live-triage");
  const gates = createGates("live-triage");
  await createAgent(request, { ...gates.gate(await getAgentSpec(request, "support-triage")), id });
  // every socket message shown before the next: the streamed text is seen growing however slow the page
  await paceSocketMessages(page);
  await openAgent(page, id);
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-panel")).toBeVisible();
  await expect(page.getByTestId("run-model")).toContainText("Offline model");
  // the example's sample queries are offered
  await page.getByTestId("sample-query").filter({ hasText: QUERY }).click();
  await expect(page.getByTestId("run-query")).toHaveValue(QUERY);

  await startRunRecorder(page);
  const runId = await startRunFromDesigner(page, QUERY);
  await expect(page).toHaveURL(new RegExp(`#/agents/${id}/runs/${runId}$`));
  // each tool is shown running (its call held at its gate), the one before it done; then the test lets it go
  for (const [index, tool] of TOOLS.entries()) {
    await expect(toolNode(page, tool)).toHaveAttribute("data-run-state", "running", { timeout: 20_000 });
    if (index > 0)
      await expect(toolNode(page, TOOLS[index - 1]!)).toHaveAttribute("data-run-state", "succeeded");
    await expect(page.getByTestId("run-status")).toHaveText("running");
    // a live run, caught while its second tool runs
    if (tool === "retrieve_docs") await attachScreenshot(page, testInfo, "runs-live");
    await gates.open(tool);
  }

  await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });
  const run = await waitForRunStatus(request, runId, "finished");
  const answer = getAnswer(run);
  await expect(page.getByTestId("run-answer")).toHaveText(answer);
  for (const tool of TOOLS) await expect(toolNode(page, tool)).toHaveAttribute("data-run-state", "succeeded");

  const samples = await getRunSamples(page);
  for (const tool of TOOLS) {
    const states = getStateSequence(samples, tool).filter((state) => state !== "none" && state !== "idle");
    expect(states, `${tool} went through`).toEqual(["running", "succeeded"]);
  }
  // in the agent's order: each tool starts after the one before it finished
  for (let index = 1; index < TOOLS.length; index += 1) {
    const previousDone = getFirstSeen(samples, TOOLS[index - 1]!, ["succeeded"]);
    const started = getFirstSeen(samples, TOOLS[index]!, ["running"]);
    expect(previousDone, `${TOOLS[index - 1]} succeeded before ${TOOLS[index]} ran`).toBeLessThanOrEqual(
      started,
    );
    expect(started).toBeLessThan(Infinity);
  }
  // the answer grew in pieces, each a beginning of the final answer
  const answers = getDistinctValues(samples, (sample) => sample.answer).filter((text) =>
    answer.startsWith(text),
  );
  expect(answers.at(-1)).toBe(answer);
  expect(answers.length, `answer texts seen: ${JSON.stringify(answers)}`).toBeGreaterThan(1);
  const statuses = getDistinctValues(samples, (sample) => sample.status);
  expect(statuses.at(-1)).toBe("finished");
  expect(statuses).toContain("running");

  // the panel's figures: the stored run's LLM calls and tool calls, and the budgets
  await expect(page.getByTestId("run-llm-calls")).toHaveText(String(run.usage.llmCalls));
  await expect(page.getByTestId("budget-bars")).toBeVisible();
  await expect(page.getByTestId("auto-seq-saved")).toBeVisible();
  expect(getToolStarts(await getRunEvents(request, runId)).map((event) => event.data.tool)).toEqual([
    ...TOOLS,
  ]);
});

test("a run opens directly at #/agents/<agentId>/runs/<runId>", async ({ page, request }) => {
  const runId = await startRunOverRest(request, { agentId: "support-triage", query: QUERY });
  const run = await waitForRunStatus(request, runId, "finished");
  await openDesigner(page, `#/agents/support-triage/runs/${runId}`);
  await expect(page.getByTestId("run-panel")).toBeVisible();
  await expect(page.getByTestId("run-summary")).toHaveAttribute("data-run-id", runId);
  await expect(page.getByTestId("run-status")).toHaveText("finished");
  await expect(page.getByTestId("run-answer")).toHaveText(getAnswer(run));
  // a finished run opens as a replay at its end
  await expect(page.getByTestId("replay-scrubber")).toBeVisible();
  for (const tool of TOOLS) await expect(toolNode(page, tool)).toHaveAttribute("data-run-state", "succeeded");
  // back to editing leaves the run and its route
  await page.getByTestId("back-to-editing").click();
  await expect(page).toHaveURL(/#\/agents\/support-triage$/);
  await expect(toolNode(page, "triage")).not.toHaveAttribute("data-run-state", /.+/);
});
