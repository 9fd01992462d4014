import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.js";
import { openDesigner, toolNode } from "./designer-helpers.js";
import {
  createAgent,
  getAnswer,
  getChainSpec,
  getRun,
  getRunEvents,
  getToolStarts,
  getUniqueId,
  openAgent,
  startRunFromDesigner,
  waitForRunStatus,
} from "./runs-helpers.js";
import { createGates } from "./gates.js";

test("Cancel stops a slow run: the panel and the server say cancelled and later tools never run", async ({
  page,
  request,
}) => {
  // fetch_a's call waits at its gate, which this test never opens: Cancel always comes mid-call
  const id = getUniqueId("slow-chain");
  const gates = createGates("slow-chain");
  await createAgent(
    request,
    gates.gate(getChainSpec({ id, tools: ["fetch_a", "fetch_b", "fetch_c"], latencyMs: 0 })),
  );
  await openAgent(page, id);
  const runId = await startRunFromDesigner(page, "Fetch everything");
  const cancel = page.getByTestId("run-cancel");
  await expect(toolNode(page, "fetch_a")).toHaveAttribute("data-run-state", "running", { timeout: 20_000 });
  await expect(cancel).toBeEnabled();
  await cancel.click();

  await expect(page.getByTestId("run-status")).toHaveText("cancelled", { timeout: 20_000 });
  await expect(cancel).toBeDisabled();
  expect((await getRun(request, runId)).status).toBe("cancelled");
  // nothing runs on the canvas any more, and fetch_c was never started
  await expect(page.locator("[data-run-state='running']")).toHaveCount(0);
  await expect(toolNode(page, "fetch_c")).not.toHaveAttribute("data-run-state", /running|succeeded/);
  const events = await getRunEvents(request, runId);
  expect(getToolStarts(events).map((event) => event.data.tool)).not.toContain("fetch_c");
  expect(events.at(-1)).toMatchObject({ type: "run_finished", data: { reason: "cancelled" } });
  // the call in flight was given up (its request aborted), not left waiting
  await expect.poll(async () => (await gates.get("fetch_a")).cancelled).toBe(1);
  expect(await gates.get("fetch_a")).toMatchObject({ calls: 1, waiting: 0, answered: 0 });
  expect((await gates.get("fetch_b")).calls).toBe(0);
});

/** What the run panel shows of a run: enough to tell a missed or repeated event. */
async function readShownRun(page: Page, tools: readonly string[]) {
  const summary = page.getByTestId("run-summary");
  const calls: Record<string, string | null> = {};
  for (const tool of tools)
    calls[tool] = await toolNode(page, tool).getByTestId("node-run-counters").getAttribute("data-calls");
  return {
    runId: await summary.getAttribute("data-run-id"),
    lastSeq: await summary.getAttribute("data-last-seq"),
    timelineCount: await summary.getAttribute("data-timeline-count"),
    answer: await page.getByTestId("run-answer").textContent(),
    llmCalls: await page.getByTestId("run-llm-calls").textContent(),
    calls,
  };
}

test("a page reloaded mid-run picks the run up where it was and ends with every event exactly once", async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  const tools = ["step_one", "step_two", "step_three", "step_four"] as const;
  const id = getUniqueId("reload-chain");
  // every step waits at its gate: step_one is let through, step_two is held across the reload
  const gates = createGates("reload-chain");
  await createAgent(request, gates.gate(getChainSpec({ id, tools, latencyMs: 0 })));
  await openAgent(page, id);
  const runId = await startRunFromDesigner(page, "Run all four steps");
  await expect(toolNode(page, "step_one")).toHaveAttribute("data-run-state", "running", { timeout: 20_000 });
  await gates.open("step_one");
  await expect(toolNode(page, "step_two")).toHaveAttribute("data-run-state", "running", { timeout: 20_000 });

  await page.reload();
  // the route names the run: the reloaded page opens it at its current point and follows it live
  await expect(page.getByTestId("run-summary")).toHaveAttribute("data-run-id", runId, { timeout: 20_000 });
  await expect(page.getByTestId("run-status")).toHaveText("running");
  await expect(toolNode(page, "step_one")).toHaveAttribute("data-run-state", "succeeded");
  await expect(toolNode(page, "step_two")).toHaveAttribute("data-run-state", "running");
  // the rest of the run, live on the reloaded page
  for (const tool of tools.slice(1)) {
    await expect(toolNode(page, tool)).toHaveAttribute("data-run-state", "running", { timeout: 20_000 });
    await gates.open(tool);
  }
  await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });

  const run = await waitForRunStatus(request, runId, "finished");
  const events = await getRunEvents(request, runId);
  const starts = getToolStarts(events);
  await expect(page.getByTestId("run-summary")).toHaveAttribute("data-last-seq", String(events.at(-1)!.seq));
  const shown = await readShownRun(page, tools);
  expect(shown.answer).toBe(getAnswer(run));
  expect(shown.llmCalls).toBe(String(run.usage.llmCalls));
  for (const tool of tools)
    expect(shown.calls[tool], `${tool} calls`).toBe(
      String(starts.filter((event) => event.data.tool === tool).length),
    );

  // a page that opens the finished run afresh folds the stored events once: it must show the same run
  const fresh = await browser.newContext({ baseURL });
  try {
    const freshPage = await fresh.newPage();
    await openDesigner(freshPage, `#/agents/${id}/runs/${runId}`);
    await expect(freshPage.getByTestId("run-status")).toHaveText("finished");
    await expect(freshPage.getByTestId("run-summary")).toHaveAttribute("data-last-seq", shown.lastSeq!);
    expect(await readShownRun(freshPage, tools)).toEqual(shown);
  } finally {
    await fresh.close();
  }
});
