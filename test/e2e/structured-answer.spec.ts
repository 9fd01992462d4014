import { expect, test } from "./fixtures.js";
import { save } from "./designer-helpers.js";
import {
  attachScreenshot,
  createAgent,
  getUniqueId,
  getRun,
  openAgent,
  startRunFromDesigner,
  waitForRunStatus,
} from "./runs-helpers.js";

const WEATHER_SCHEMA = {
  type: "object",
  properties: {
    city: { type: "string", description: "The city asked about." },
    celsius: { type: "number" },
  },
  required: ["city", "celsius"],
};

test("Settings → Answer sets an answer schema, shows its issues, and the run view shows the answer object as JSON", async ({
  page,
  request,
}, testInfo) => {
  const id = getUniqueId("structured-answer");
  await createAgent(request, {
    version: 1,
    id,
    name: "Weather",
    llm: { provider: "offline", model: "offline" },
    tools: [
      {
        name: "get_weather",
        desc: "The weather in a city",
        impl: { kind: "mock", latencyMs: 0, output: { city: "Paris", celsius: 19 } },
      },
    ],
  });
  await openAgent(page, id);
  await page.getByTestId("tab-settings").click();
  const section = page.getByTestId("answer-section");
  await section.scrollIntoViewIfNeeded();
  // free text is the default; choosing a JSON object starts a schema to edit with the tools' editor
  await expect(page.getByTestId("answer-format")).toHaveValue("text");
  await expect(page.getByTestId("answer-schema")).toHaveCount(0);
  await page.getByTestId("answer-format").selectOption("object");
  await expect(page.getByTestId("answer-schema")).toBeVisible();

  // a schema that does not describe an object is the validator's issue, shown on the field
  await page.getByTestId("answer-schema-tab-json").click();
  await page.getByTestId("answer-schema-raw").fill('{"type": "string"}');
  await expect(page.getByTestId("answer-schema-issues")).toContainText("must describe an object");
  await expect(page.getByTestId("answer-schema-issues")).toContainText("$.answerSchema");
  await attachScreenshot(page, testInfo, "answer-settings-issue");

  await page.getByTestId("answer-schema-raw").fill(JSON.stringify(WEATHER_SCHEMA, null, 2));
  await expect(page.getByTestId("answer-schema-issues")).toHaveCount(0);
  await page.getByTestId("answer-schema-tab-fields").click();
  await expect(page.getByTestId("answer-schema-field-0")).toBeVisible();
  await attachScreenshot(page, testInfo, "answer-settings");
  // removing the schema is one edit, undone like any other
  await page.getByTestId("answer-schema-remove").click();
  await expect(page.getByTestId("answer-format")).toHaveValue("text");
  await expect(page.getByTestId("answer-schema")).toHaveCount(0);
  await page.getByTestId("command-undo").click();
  await expect(page.getByTestId("answer-format")).toHaveValue("object");
  await expect(page.getByTestId("answer-schema-field-1")).toBeVisible();
  await save(page, 2);
  const saved = (await (await request.get(`/api/agents/${id}`)).json()) as {
    spec: { answerSchema?: unknown };
  };
  expect(saved.spec.answerSchema).toEqual(WEATHER_SCHEMA);

  // a run on the offline model answers with an object that fits; the run view shows it as JSON
  const runId = await startRunFromDesigner(page, "Weather in Paris?");
  const run = await waitForRunStatus(request, runId, "finished");
  const payload = run.result?.kind === "finish" ? (run.result.payload as { data?: unknown }) : undefined;
  expect(payload?.data).toMatchObject({ city: "Paris", celsius: 19 });
  const json = page.getByTestId("run-answer-json-text");
  await expect(json).toContainText('"city": "Paris"');
  await expect(json).toContainText('"celsius": 19');
  await expect(page.getByTestId("run-answer")).toBeHidden();
  await attachScreenshot(page, testInfo, "answer-run-json");

  // the toggle goes back to the text answer: the object's JSON text
  await page.getByTestId("run-answer-mode-text").click();
  await expect(page.getByTestId("run-answer")).toBeVisible();
  await expect(page.getByTestId("run-answer")).toContainText('"city":"Paris"');
  await expect(page.getByTestId("run-answer-json")).toHaveCount(0);
  expect((await getRun(request, runId)).status).toBe("finished");
});

test("a text answer has no JSON view", async ({ page, request }) => {
  const id = getUniqueId("text-answer");
  await createAgent(request, {
    version: 1,
    id,
    name: "Plain",
    llm: { provider: "offline", model: "offline" },
    tools: [{ name: "look_up", desc: "Looks up", impl: { kind: "mock", latencyMs: 0, output: { done: 1 } } }],
  });
  await openAgent(page, id);
  const runId = await startRunFromDesigner(page, "Anything");
  await waitForRunStatus(request, runId, "finished");
  await expect(page.getByTestId("run-answer")).toHaveAttribute("data-done", "true");
  await expect(page.getByTestId("run-answer")).toBeVisible();
  await expect(page.getByTestId("run-answer-mode")).toHaveCount(0);
  await expect(page.getByTestId("run-answer-json")).toHaveCount(0);
});
