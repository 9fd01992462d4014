import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { TestInfo } from "@playwright/test";
import type { McpServersResponse } from "@waddle/protocol";
import { expect, test } from "./fixtures.js";
import { ARTIFACTS_DIR, createAgent, getAgent, openDesigner, save, toolNode } from "./designer-helpers.js";
import { getStateSequence, getRunSamples, startRunRecorder } from "./run-recorder.js";
import {
  attachScreenshot,
  getRunEvents,
  getToolStarts,
  getUniqueId,
  startRunFromDesigner,
  waitForRunStatus,
} from "./runs-helpers.js";
import { createGates } from "./gates.js";

/** The MCP server global setup lists in WADDLE_MCP_SERVERS: the SDK fixture over stdio. */
const SERVER = "fixture";
/** The fixture's tools the palette must show; `gate` is the one the e2e stack adds (a call waits for its gate). */
const FIXTURE_TOOLS = ["echo", "add", "slow", "fail", "crash", "stats", "gate"];

test("the palette shows the MCP fixture with a status dot and its tools; a dropped tool runs on the offline model", async ({
  page,
  request,
}, testInfo) => {
  const listed = await request.get("/api/mcp/servers");
  expect(listed.status()).toBe(200);
  const { servers } = (await listed.json()) as McpServersResponse;
  expect(servers.map((server) => server.name)).toEqual([SERVER]);

  await openDesigner(page);
  const id = getUniqueId("e2e-mcp");
  await createAgent(page, { name: "MCP echo", id });
  await page.getByTestId("tab-palette").click();

  // the fixture server, grouped with its tools and a status dot (it starts when its tools are listed)
  const section = page.getByTestId(`palette-mcp-server-${SERVER}`);
  await expect(section).toBeVisible();
  await expect(section).toHaveAttribute("data-status", "connected");
  await expect(section.locator(".status-dot")).toHaveClass(/\bmcp-connected\b/);
  await expect(section).toContainText("stdio · connected");
  for (const tool of FIXTURE_TOOLS)
    await expect(section.getByTestId(`palette-mcp-${SERVER}-${tool}`)).toBeVisible();
  await expect(section.getByTestId(`palette-mcp-${SERVER}-echo`)).toContainText("Echoes the text back.");
  // the palette's MCP section: its heading down to the server's last tool
  await section.scrollIntoViewIfNeeded();
  const heading = await page.getByRole("heading", { name: "MCP servers" }).boundingBox();
  const tools = await section.boundingBox();
  if (!heading || !tools) throw new Error("the MCP section is not laid out");
  const clip = {
    x: Math.min(heading.x, tools.x) - 8,
    y: heading.y - 8,
    width: Math.max(heading.width, tools.width) + 16,
    height: tools.y + tools.height - heading.y + 16,
  };
  await attachPng(testInfo, { body: await page.screenshot({ clip }), name: "mcp-palette" });

  // drop three of its tools on the canvas: each becomes an mcp tool with the listing's schemas
  const canvas = page.getByTestId("canvas");
  const box = await canvas.boundingBox();
  if (!box) throw new Error("no canvas");
  const drop = async (tool: string, dx: number) => {
    await page.getByTestId("tab-palette").click();
    await section
      .getByTestId(`palette-mcp-${SERVER}-${tool}`)
      .dragTo(canvas, { targetPosition: { x: box.width / 2 + dx, y: box.height / 2 } });
    await expect(toolNode(page, tool)).toBeVisible();
    await expect(page.getByTestId("mcp-server")).toHaveValue(SERVER);
    await expect(page.getByTestId("mcp-tool")).toHaveValue(tool);
  };
  await drop("echo", -300);
  await drop("gate", 0);
  // gate waits until the test opens the gate its argument names: this test's own, set as the default
  const gates = createGates("e2e-mcp");
  const gateKey = gates.getKey("gate");
  const gateArg = page.getByTestId("args-schema-field-0");
  await expect(gateArg.getByTestId("args-schema-field-0-name")).toHaveValue("gate");
  await gateArg.getByRole("button", { name: "Details" }).click();
  await gateArg.getByTestId("args-schema-field-0-default").fill(gateKey);
  await gateArg.getByTestId("args-schema-field-0-default").press("Tab");
  await drop("add", 300);
  // tidy up with elkjs (asynchronous): tools with no edges between them end in one column, apart
  await page.getByTestId("command-auto-layout").click();
  await expect
    .poll(async () => {
      const boxes = await Promise.all(
        ["echo", "gate", "add"].map((name) => toolNode(page, name).boundingBox()),
      );
      if (boxes.some((one) => one === null)) return "not laid out";
      const sorted = (boxes as { x: number; y: number; height: number }[]).sort((p, q) => p.y - q.y);
      const column = sorted.every((one) => Math.abs(one.x - sorted[0]!.x) < 1);
      const apart = sorted.every(
        (one, index) => index === 0 || sorted[index - 1]!.y + sorted[index - 1]!.height <= one.y,
      );
      return column && apart ? "one column" : "not yet";
    })
    .toBe("one column");

  await save(page, 1);
  const saved = await getAgent(request, id);
  const savedTools = saved.spec.tools as {
    name: string;
    argsSchema: { properties: Record<string, { default?: unknown }> };
    outSchema: { properties: Record<string, unknown> };
    impl: Record<string, unknown>;
  }[];
  expect(savedTools.map((tool) => tool.name)).toEqual(["echo", "gate", "add"]);
  const [echo, gate, add] = savedTools;
  for (const tool of savedTools) expect(tool.impl).toEqual({ kind: "mcp", server: SERVER, tool: tool.name });
  const listing = (name: string) => servers[0]!.tools.find((tool) => tool.name === name)!;
  expect(echo?.argsSchema).toEqual(listing("echo").argsSchema);
  expect(Object.keys(echo!.argsSchema.properties)).toEqual(["text"]);
  // echo declares no output schema: its result is {text}; add declares {sum}
  expect(Object.keys(echo!.outSchema.properties)).toEqual(["text"]);
  expect(gate?.argsSchema.properties.gate?.default).toBe(gateKey);
  expect(add?.argsSchema).toEqual(listing("add").argsSchema);
  expect(add?.outSchema).toEqual(listing("add").outSchema);
  expect(Object.keys(add!.outSchema.properties)).toEqual(["sum"]);

  // run it from the run panel with the offline model: the nodes light up in turn, the run finishes
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-model")).toContainText("Offline model");
  await startRunRecorder(page);
  const runId = await startRunFromDesigner(page, "Echo something, wait for the gate, then add two numbers");
  // gate runs until the test opens its gate: caught running, with echo done and add not started
  await expect(toolNode(page, "gate")).toHaveAttribute("data-run-state", "running", { timeout: 20_000 });
  await expect(toolNode(page, "echo")).toHaveAttribute("data-run-state", "succeeded");
  await expect(toolNode(page, "add")).not.toHaveAttribute("data-run-state", /running|succeeded/);
  await attachScreenshot(page, testInfo, "mcp-run");
  await gates.open("gate");
  await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 20_000 });
  for (const tool of ["echo", "gate", "add"])
    await expect(toolNode(page, tool)).toHaveAttribute("data-run-state", "succeeded");
  const states = getStateSequence(await getRunSamples(page), "gate").filter(
    (state) => state !== "none" && state !== "idle",
  );
  expect(states).toEqual(["running", "succeeded"]);

  const run = await waitForRunStatus(request, runId, "finished");
  expect(run.offline).toBe(true);
  const events = await getRunEvents(request, runId);
  expect(getToolStarts(events).map((event) => event.data.tool)).toEqual(["echo", "gate", "add"]);
  const ends = events.filter(
    (event): event is Extract<typeof event, { type: "tool_end" }> => event.type === "tool_end",
  );
  const observation = (tool: string) =>
    JSON.stringify(ends.find((event) => event.data.tool === tool)?.data.observation);
  expect(observation("echo")).toContain("echo: hello");
  expect(observation("gate")).toContain(`gate ${gateKey} opened`);
  expect(observation("add")).toContain('"sum":5');
  expect(events.filter((event) => event.type === "tool_error")).toEqual([]);
});

/** Attaches a screenshot to the report and keeps a copy under test/e2e/artifacts/. */
async function attachPng(testInfo: TestInfo, options: { body: Buffer; name: string }): Promise<void> {
  const file = testInfo.outputPath(`${options.name}.png`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, options.body);
  await testInfo.attach(options.name, { path: file, contentType: "image/png" });
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  writeFileSync(path.join(ARTIFACTS_DIR, `${options.name}.png`), options.body);
}
