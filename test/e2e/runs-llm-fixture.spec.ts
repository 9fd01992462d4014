import { fixtureReply } from "@waddle/planner/testing";
import { expect, test } from "./fixtures.js";
import { toolNode } from "./designer-helpers.js";
import { getFixtureLlm, getFixtureStats, scriptFixture } from "./llm-fixture.js";
import { getDistinctValues, getRunSamples, getStateSequence, startRunRecorder } from "./run-recorder.js";
import {
  attachScreenshot,
  createAgent,
  getAnswer,
  getRunEvents,
  getUniqueId,
  openAgent,
  startRunFromDesigner,
  waitForRunStatus,
} from "./runs-helpers.js";
import { createGates } from "./gates.js";
import { paceSocketMessages } from "./socket-pacer.js";

const QUERY = "Where is order 1042?";
const FIRST_THOUGHT = "The customer asks about an order: look it up before answering anything.";
const LAST_THOUGHT = "The lookup found the order in transit; answer with its status and the date.";
const ANSWER = "Order 1042 left the warehouse on Monday and is in transit; it should arrive on Thursday.";

test("an agent runs on the local OpenAI-compatible endpoint: streamed reasoning shows on the thinking channel", async ({
  page,
  request,
}, testInfo) => {
  const id = getUniqueId("fixture-orders");
  // lookup_order waits at its gate until the page has shown it running
  const gates = createGates("fixture-orders");
  await createAgent(
    request,
    gates.gate({
      version: 1,
      id,
      name: "Orders on the fixture",
      llm: getFixtureLlm(),
      tools: [
        {
          name: "lookup_order",
          desc: "Find an order by its number.",
          argsSchema: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
          impl: { kind: "mock", output: { status: "in transit", eta: "Thursday" } },
        },
      ],
    }),
  );
  // what the model answers, streamed slowly enough for the page to show it arrive
  const stream = { chunkSize: 6, chunkDelayMs: 40 };
  await scriptFixture([
    fixtureReply.json(
      { next_node: "lookup_order", args: { order: "1042" } },
      { ...stream, reasoning: FIRST_THOUGHT },
    ),
    fixtureReply.finalAnswer(ANSWER, { ...stream, reasoning: LAST_THOUGHT }),
  ]);
  const before = await getFixtureStats();

  // every socket message shown before the next: the streamed text is seen growing however slow the page
  await paceSocketMessages(page);
  await openAgent(page, id);
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-model")).toContainText("fixture-model");
  await startRunRecorder(page);
  const runId = await startRunFromDesigner(page, QUERY);
  await expect(page.getByTestId("run-ran-model")).toHaveText("openai · fixture-model");
  await expect(toolNode(page, "lookup_order")).toHaveAttribute("data-run-state", "running", {
    timeout: 20_000,
  });
  await gates.open("lookup_order");
  await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });
  await expect(page.getByTestId("run-answer")).toHaveText(ANSWER);
  await expect(toolNode(page, "lookup_order")).toHaveAttribute("data-run-state", "succeeded");

  // the thinking channel: collapsed, it says how much streamed; opened, it shows the last call's reasoning
  const thinking = page.getByTestId("run-thinking");
  await expect(thinking).toHaveAttribute("data-length", String(LAST_THOUGHT.length));
  await thinking.locator("summary").click();
  await expect(thinking).toContainText(LAST_THOUGHT);
  await attachScreenshot(page, testInfo, "runs-llm-fixture");

  const samples = await getRunSamples(page);
  // the reasoning arrived in pieces: the channel's length grew within a call, for both calls
  const lengths = getDistinctValues(samples, (sample) => sample.thinkingLength);
  const rising = lengths.filter((length, index) => index > 0 && length > lengths[index - 1]!);
  expect(rising.length, `thinking lengths seen: ${JSON.stringify(lengths)}`).toBeGreaterThan(1);
  expect(lengths).toContain(FIRST_THOUGHT.length);
  const answers = getDistinctValues(samples, (sample) => sample.answer).filter((text) =>
    ANSWER.startsWith(text),
  );
  expect(answers.at(-1)).toBe(ANSWER);
  expect(answers.length, `answer texts seen: ${JSON.stringify(answers)}`).toBeGreaterThan(1);
  expect(
    getStateSequence(samples, "lookup_order").filter((state) => state !== "none" && state !== "idle"),
  ).toEqual(["running", "succeeded"]);

  // the real client reached the fixture: two completions, nothing left in the script, no offline call
  const run = await waitForRunStatus(request, runId, "finished");
  expect(getAnswer(run)).toBe(ANSWER);
  expect(run.offline).toBe(false);
  const after = await getFixtureStats();
  expect(after.answered - before.answered).toBe(2);
  expect(after.pending).toBe(0);
  const calls = (await getRunEvents(request, runId)).filter((event) => event.type === "llm_call");
  expect(calls.map((event) => event.data)).toEqual([
    expect.objectContaining({ provider: "openai", model: "fixture-model", offline: false }),
    expect.objectContaining({ provider: "openai", model: "fixture-model", offline: false }),
  ]);
});
