import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.js";
import { openDesigner, toolNode } from "./designer-helpers.js";
import { getFirstSeen, getRunSamples, getStateSequence, startRunRecorder } from "./run-recorder.js";
import { attachScreenshot, getRunEvents, startRunOverRest, waitForRunStatus } from "./runs-helpers.js";

const TOOLS = ["triage", "retrieve_docs", "summarize"] as const;

/** Each tool's `data-run-state` on the canvas. */
async function expectStates(page: Page, states: Record<(typeof TOOLS)[number], string>): Promise<void> {
  for (const tool of TOOLS)
    await expect(toolNode(page, tool), tool).toHaveAttribute("data-run-state", states[tool]);
}

test("a finished run replays on the canvas: jump with the scrubber, step, play", async ({
  page,
  request,
}, testInfo) => {
  const runId = await startRunOverRest(request, {
    agentId: "support-triage",
    query: "How do I reset two-factor authentication on my account?",
  });
  await waitForRunStatus(request, runId, "finished");
  const events = await getRunEvents(request, runId);
  // a position is a count of events applied: the tool_start at index i shows from position i + 1
  const positionAfter = (predicate: (event: (typeof events)[number]) => boolean) =>
    events.findIndex(predicate) + 1;
  const triageStart = positionAfter((event) => event.type === "tool_start" && event.data.tool === "triage");
  const retrieveStart = positionAfter(
    (event) => event.type === "tool_start" && event.data.tool === "retrieve_docs",
  );
  expect(events[triageStart]?.type, "triage's tool_end follows its tool_start").toBe("tool_end");

  await openDesigner(page, `#/agents/support-triage/runs/${runId}`);
  const scrubber = page.getByTestId("replay-scrubber");
  await expect(scrubber).toBeVisible();
  // it opens at its end: every event applied, every tool done
  await expect(scrubber).toHaveAttribute("max", String(events.length));
  await expect(scrubber).toHaveValue(String(events.length));
  await expectStates(page, { triage: "succeeded", retrieve_docs: "succeeded", summarize: "succeeded" });

  // jump to the start, then into the middle of the run
  await scrubber.fill("0");
  await expectStates(page, { triage: "idle", retrieve_docs: "idle", summarize: "idle" });
  await scrubber.fill(String(retrieveStart));
  await expectStates(page, { triage: "succeeded", retrieve_docs: "running", summarize: "idle" });
  await expect(page.getByTestId("replay-position")).toContainText(
    `Event ${retrieveStart} of ${events.length}`,
  );
  await attachScreenshot(page, testInfo, "runs-replay");
  await scrubber.fill(String(triageStart));
  await expectStates(page, { triage: "running", retrieve_docs: "idle", summarize: "idle" });

  // one event at a time: triage's tool_end, and back
  await page.getByTestId("replay-step-forward").click();
  await expect(page.getByTestId("replay-position")).toContainText(`Event ${triageStart + 1} of`);
  await expectStates(page, { triage: "succeeded", retrieve_docs: "idle", summarize: "idle" });
  await page.getByTestId("replay-step-back").click();
  await expect(scrubber).toHaveValue(String(triageStart));
  await expectStates(page, { triage: "running", retrieve_docs: "idle", summarize: "idle" });

  // play from the start: the nodes light up in the order the run took, to its end
  await scrubber.fill("0");
  await expectStates(page, { triage: "idle", retrieve_docs: "idle", summarize: "idle" });
  // at half speed: a frame counts at most 250 ms (MAX_FRAME_MS), i.e. 125 ms of the run, less than the least
  // gap between two tool events (140 ms), so however late the frames come, each tool event gets one of its
  // own and every state shows; at full speed a late frame could apply triage's start and end together
  await page.getByTestId("replay-speed").selectOption("0.5");
  await startRunRecorder(page);
  const play = page.getByTestId("replay-play");
  await play.click();
  await expect(play).toHaveAttribute("aria-pressed", "true");
  await expect(scrubber).toHaveValue(String(events.length), { timeout: 45_000 });
  await expect(play).toHaveAttribute("aria-pressed", "false");
  await expectStates(page, { triage: "succeeded", retrieve_docs: "succeeded", summarize: "succeeded" });
  const samples = await getRunSamples(page);
  for (const tool of TOOLS)
    expect(getStateSequence(samples, tool), `${tool} during play`).toEqual(["idle", "running", "succeeded"]);
  for (let index = 1; index < TOOLS.length; index += 1)
    expect(getFirstSeen(samples, TOOLS[index - 1]!, ["succeeded"])).toBeLessThanOrEqual(
      getFirstSeen(samples, TOOLS[index]!, ["running"]),
    );
  await expect(page.getByTestId("run-status")).toHaveText("finished");
});
