import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures.js";
import { saveScreenshot, selectTool, startServer } from "./designer-helpers.js";

/**
 * The design loop of issue 21 against a server whose http allow-list names a local API: test one http tool
 * from the inspector (a schema mistake in the args is caught before anything is sent), see a template
 * mistake flagged while designing, reload with unsaved edits and restore them, and copy a snippet from Use.
 */
let api: Server;
let apiPort = 0;
const apiCalls: string[] = [];
let waddle: { url: string; stop: () => Promise<void> };

test.beforeAll(async () => {
  api = createServer((request, response) => {
    apiCalls.push(request.url ?? "");
    response.setHeader("content-type", "application/json");
    response.end(
      JSON.stringify({ city: decodeURIComponent((request.url ?? "").split("/").pop() ?? ""), celsius: 21 }),
    );
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiPort = (api.address() as AddressInfo).port;
  waddle = await startServer({ WADDLE_HTTP_ALLOW: `127.0.0.1:${apiPort}` });
});

test.afterAll(async () => {
  await waddle?.stop();
  await new Promise<void>((resolve) => api.close(() => resolve()));
});

const cityArgs = {
  type: "object",
  properties: { city: { type: "string", minLength: 2, description: "A city name" } },
  required: ["city"],
};

test("test a tool, see a template mistake, restore a draft, copy a snippet", async ({ page, context }) => {
  test.setTimeout(90_000);
  const spec = {
    version: 1,
    id: "weather-desk",
    name: "Weather desk",
    description: "Answers weather questions",
    sampleQueries: ["Weather in Oslo?"],
    tools: [
      {
        name: "weather",
        desc: "Current weather of a city",
        sideEffects: "read",
        argsSchema: cityArgs,
        outSchema: { type: "object", properties: { city: { type: "string" }, celsius: { type: "number" } } },
        impl: { kind: "http", url: `http://127.0.0.1:${apiPort}/weather/{city}` },
      },
      {
        name: "forecast",
        desc: "Forecast from a public API",
        sideEffects: "read",
        argsSchema: cityArgs,
        impl: { kind: "http", url: "https://api.example.com/forecast?q={city}" },
      },
    ],
  };
  const created = await page.request.post(`${waddle.url}/api/agents`, { data: spec });
  expect(created.status()).toBe(201);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${waddle.url}/#/agents/weather-desk`);
  await expect(page.getByTestId("doc-name")).toHaveText("Weather desk");

  // the server's settings: forecast's host is not allowed — a warning, the agent stays valid
  await expect(page.getByTestId("issues-count")).toHaveText("Valid · 1 warning");

  // Run tool: args that fail the schema show zod's issue in the form and send nothing
  await selectTool(page, "weather");
  await page.getByTestId("tool-test-button").click();
  const dialog = page.getByTestId("tool-test-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("args-field-city").fill("X");
  await dialog.getByTestId("tool-test-run").click();
  await expect(dialog.getByTestId("tool-test-errors")).toBeVisible();
  await expect(dialog.getByText(/2/).first()).toBeVisible();
  expect(apiCalls).toEqual([]);
  await dialog.getByTestId("args-field-city").fill("Oslo");
  await dialog.getByTestId("tool-test-run").click();
  const result = dialog.getByTestId("tool-test-result");
  await expect(result).toContainText("OK");
  await expect(result).toContainText('"celsius": 21');
  expect(apiCalls).toEqual(["/weather/Oslo"]);
  await saveScreenshot(page, "design-loop-run-tool");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // a template mistake is flagged while designing, before any run
  const url = page.getByTestId("http-url");
  await url.fill(`http://127.0.0.1:${apiPort}/weather/{town}`);
  await url.press("Tab");
  await expect(page.getByTestId("issues-count")).toHaveText("1 error · 1 warning");
  await page.getByTestId("issues-count").click();
  const panel = page.getByTestId("issues-panel");
  await expect(panel).toContainText("{town} names no argument of weather");
  await expect(panel).toContainText("api.example.com is not on this server's http allow-list");
  await expect(panel.getByText('Add argument "town"')).toBeVisible();
  await saveScreenshot(page, "design-loop-issues");

  // the unsaved edit reaches the server as a draft; a reload offers it back
  await expect
    .poll(async () => {
      const draft = await page.request.get(`${waddle.url}/api/agents/weather-desk/draft`);
      return draft.ok() ? JSON.stringify(await draft.json()) : "";
    })
    .toContain("{town}");
  page.on("dialog", (prompt) => void prompt.accept());
  await page.reload();
  await expect(page.getByTestId("draft-banner")).toBeVisible();
  await expect(page.getByTestId("save-status")).toHaveAttribute("data-dirty", "false");
  await saveScreenshot(page, "design-loop-draft-banner");
  await page.getByTestId("draft-restore").click();
  await expect(page.getByTestId("draft-banner")).toBeHidden();
  await expect(page.getByTestId("save-status")).toHaveAttribute("data-dirty", "true");
  await selectTool(page, "weather");
  await expect(page.getByTestId("http-url")).toHaveValue(`http://127.0.0.1:${apiPort}/weather/{town}`);

  // Use: a snippet for this agent and server, copied to the clipboard
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: waddle.url });
  await page.getByTestId("use-agent").click();
  const use = page.getByTestId("use-dialog");
  await expect(use.getByTestId("use-snippet-openai")).toContainText(`baseURL: "${waddle.url}/v1"`);
  await use.getByTestId("use-copy-curl").click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(`curl -sS -X POST ${waddle.url}/api/runs`);
  expect(copied).toContain('"agentId":"weather-desk"');
  await saveScreenshot(page, "design-loop-use");
});
