import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures.js";
import {
  createAgent as createAgentInPage,
  openDesigner,
  saveScreenshot,
  toolNode,
} from "./designer-helpers.js";
import { createAgent, getChainSpec, getUniqueId, openAgent, startRunFromDesigner } from "./runs-helpers.js";
import { createGates } from "./gates.js";

/** The smallest size a tool name may render at (12.5 px text at zoom 0.8). */
const LEGIBLE_PX = 10;

/** The size a tool's name renders at on screen: its font size times the canvas zoom. */
async function getRenderedNameSize(node: Locator): Promise<number> {
  const name = node.locator(".tool-name");
  const box = await name.boundingBox();
  const { fontSize, layoutHeight } = await name.evaluate((element) => ({
    fontSize: parseFloat(getComputedStyle(element).fontSize),
    layoutHeight: (element as HTMLElement).offsetHeight,
  }));
  if (!box || layoutHeight === 0) return 0;
  return (fontSize * box.height) / layoutHeight;
}

async function getWidth(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error("not on screen");
  return Math.round(box.width);
}

/** Every tool node lies inside the canvas: the whole agent shows without panning. */
async function expectAllNodesInCanvas(page: Page, count: number): Promise<void> {
  const canvas = await page.getByTestId("canvas").boundingBox();
  if (!canvas) throw new Error("no canvas");
  const nodes = page.locator(".react-flow__node-tool");
  await expect(nodes).toHaveCount(count);
  for (const node of await nodes.all()) {
    const box = await node.boundingBox();
    if (!box) throw new Error("a node has no box");
    expect(box.x).toBeGreaterThanOrEqual(canvas.x - 1);
    expect(box.y).toBeGreaterThanOrEqual(canvas.y - 1);
    expect(box.x + box.width).toBeLessThanOrEqual(canvas.x + canvas.width + 1);
    expect(box.y + box.height).toBeLessThanOrEqual(canvas.y + canvas.height + 1);
  }
}

/** Puts text on the clipboard as a paste event carries it, with the focus on the canvas. */
async function pasteText(page: Page, text: string): Promise<void> {
  await page.evaluate((value) => {
    const data = new DataTransfer();
    data.setData("text/plain", value);
    document.body.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true }));
  }, text);
}

test("panels resize and collapse, and stay so after a reload", async ({ page }) => {
  await openDesigner(page);
  const left = page.getByTestId("panel-left");
  const right = page.getByTestId("panel-right");
  expect(await getWidth(left)).toBe(280);
  expect(await getWidth(right)).toBe(372);
  await saveScreenshot(page, "canvas-polish-panels-open");

  // drag the right panel's inner edge 100 px to the left: it grows by 100 px
  const handle = page.getByTestId("panel-right-resize");
  const box = await handle.boundingBox();
  if (!box) throw new Error("no handle");
  await page.mouse.move(box.x + box.width / 2, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 50, box.y + 200, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2 - 100, box.y + 200, { steps: 4 });
  await page.mouse.up();
  expect(await getWidth(right)).toBe(472);

  // the keyboard: arrows on the focused handle, within the panel's limits
  const leftHandle = page.getByTestId("panel-left-resize");
  await leftHandle.focus();
  await page.keyboard.press("ArrowRight");
  await expect(leftHandle).toHaveAttribute("aria-valuenow", "296");
  await page.keyboard.press("Home");
  await expect(leftHandle).toHaveAttribute("aria-valuenow", "200");
  expect(await getWidth(left)).toBe(200);

  // collapse the left panel with its button; the canvas takes the room
  const canvasBefore = await getWidth(page.getByTestId("canvas"));
  await page.getByTestId("panel-left-toggle").click();
  await expect(page.getByTestId("panel-left-rail")).toBeVisible();
  await expect(page.getByTestId("agent-list")).toBeHidden();
  expect(await getWidth(page.getByTestId("canvas"))).toBeGreaterThan(canvasBefore + 100);

  await page.reload();
  await expect(page.getByTestId("canvas")).toBeVisible();
  await expect(page.getByTestId("panel-left-rail")).toBeVisible();
  expect(await getWidth(page.getByTestId("panel-right"))).toBe(472);

  // the shortcuts: Ctrl+Alt+B hides the right panel, Ctrl+B shows the left one again
  await page.getByTestId("canvas").click({ position: { x: 300, y: 300 } });
  await page.keyboard.press("ControlOrMeta+Alt+b");
  await expect(page.getByTestId("panel-right-rail")).toBeVisible();
  await saveScreenshot(page, "canvas-polish-panels-collapsed");
  await page.keyboard.press("ControlOrMeta+b");
  await expect(page.getByTestId("panel-left")).toBeVisible();
  expect(await getWidth(page.getByTestId("panel-left"))).toBe(200);
  await expect(page.getByTestId("agent-list")).toBeVisible();
});

test("the command palette finds a node and runs a command from the keyboard", async ({ page }) => {
  await openAgent(page, "document-pipeline");
  await page.keyboard.press("ControlOrMeta+k");
  const palette = page.getByTestId("command-palette");
  await expect(palette).toBeVisible();
  const input = page.getByTestId("command-palette-input");
  await expect(input).toBeFocused();
  const items = palette.getByTestId("command-palette-item");
  expect(await items.count()).toBeGreaterThan(10);
  await saveScreenshot(page, "canvas-polish-command-palette");

  // fuzzy: "extmeta" finds extract_metadata; Enter selects and centres it
  await input.fill("extmeta");
  await expect(items.first()).toHaveAttribute("data-id", "node:extract_metadata");
  await page.keyboard.press("Enter");
  await expect(palette).toBeHidden();
  await expect(toolNode(page, "extract_metadata")).toHaveClass(/is-selected/);
  await expect(page.getByTestId("tool-name-input")).toHaveValue("extract_metadata");

  // arrows move through the list; Escape closes without running anything
  await page.keyboard.press("ControlOrMeta+k");
  await input.fill("panel");
  const first = await items.nth(0).getAttribute("data-id");
  const second = await items.nth(1).getAttribute("data-id");
  expect(second).not.toBe(first);
  await expect(items.nth(0)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowDown");
  await expect(items.nth(1)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Escape");
  await expect(palette).toBeHidden();
  await expect(page.getByTestId("panel-left")).toBeVisible();

  // a command: hide the agents and tools panel
  await page.keyboard.press("ControlOrMeta+k");
  await input.fill("hide agents tools");
  await expect(items.first()).toHaveAttribute("data-id", "command:toggle-left-panel");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("panel-left-rail")).toBeVisible();

  // nothing matches: said so
  await page.keyboard.press("ControlOrMeta+k");
  await input.fill("zzzqqq");
  await expect(items).toHaveCount(0);
  await expect(palette).toContainText("Nothing matches");
});

test("pasting a tool's JSON adds it, bad JSON says why, and copy/paste round-trips", async ({ page }) => {
  const id = getUniqueId("paste");
  await openDesigner(page);
  await createAgentInPage(page, { name: "Paste target", id });
  const tool = {
    name: "lookup_weather",
    desc: "Looks the weather up",
    argsSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    impl: { kind: "mock", output: { forecast: "sunny" } },
  };
  await page.getByTestId("canvas").click({ position: { x: 200, y: 200 } });
  await pasteText(page, JSON.stringify(tool));
  await expect(toolNode(page, "lookup_weather")).toBeVisible();
  await expect(page.getByTestId("toast-success")).toContainText("lookup_weather");

  // the same name again: a suffix
  await pasteText(page, JSON.stringify(tool));
  await expect(toolNode(page, "lookup_weather_2")).toBeVisible();

  // not a tool: a toast says what is wrong, nothing is added
  await pasteText(page, JSON.stringify({ name: "broken", impl: { kind: "teleport" } }));
  await expect(page.getByTestId("toast-error")).toContainText("Not a valid tool");
  await expect(page.getByTestId("toast-error")).toContainText("impl.kind");
  await pasteText(page, "this is not json");
  await expect(page.getByTestId("toast-error").last()).toContainText("does not hold JSON");
  await expect(page.locator(".react-flow__node-tool")).toHaveCount(2);

  // an agent's JSON adds its tools and edges
  const agent = getChainSpec({ id: "pasted-chain", tools: ["one", "two", "three"], latencyMs: 0 });
  await pasteText(page, JSON.stringify(agent));
  await expect(toolNode(page, "three")).toBeVisible();
  await expect(page.getByTestId("rf__edge-one-two")).toBeAttached();

  // Ctrl+C of a node puts its tool JSON on the clipboard; pasting that adds a copy
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await toolNode(page, "lookup_weather").locator(".tool-name").click();
  await page.keyboard.press("ControlOrMeta+c");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(JSON.parse(copied)).toMatchObject({ name: "lookup_weather", desc: "Looks the weather up" });
  await pasteText(page, copied);
  await expect(toolNode(page, "lookup_weather_3")).toBeVisible();
  // and the keyboard's paste reads the same clipboard
  await page.keyboard.press("ControlOrMeta+v");
  await expect(toolNode(page, "lookup_weather_4")).toBeVisible();
});

/** True when the element lies across the canvas's whole width, inside it. */
async function isInCanvas(page: Page, element: Locator): Promise<boolean> {
  const canvas = await page.getByTestId("canvas").boundingBox();
  const box = await element.boundingBox();
  return !!canvas && !!box && box.x >= canvas.x && box.x + box.width <= canvas.x + canvas.width;
}

test("the view follows the running tool, and panning by hand turns following off", async ({
  page,
  request,
}) => {
  const id = getUniqueId("follow");
  const names = Array.from({ length: 8 }, (_, index) => `step_${index + 1}`);
  // every step waits at its gate until the test has seen the view come to it
  const stepGates = createGates("follow-steps");
  const spec = {
    ...stepGates.gate(getChainSpec({ id, tools: names, latencyMs: 0 })),
    planner: { maxIters: 30 },
  };
  // one long row: too wide to show whole at a legible zoom, so the run leaves the first view
  const layout = { nodes: Object.fromEntries(names.map((name, index) => [name, { x: index * 330, y: 0 }])) };
  await createAgent(request, { ...spec, layout });
  await openAgent(page, id);
  await startRunFromDesigner(page, "walk every step");
  const follow = page.getByTestId("follow-run");
  await expect(follow).toHaveAttribute("aria-pressed", "true");
  // each running tool comes on screen (the pan is animated: wait for where it ends): the view follows the row
  for (const name of names) {
    await expect(toolNode(page, name)).toHaveAttribute("data-run-state", "running", { timeout: 20_000 });
    await expect.poll(() => isInCanvas(page, toolNode(page, name)), { message: name }).toBe(true);
    await stepGates.open(name);
  }
  await expect(toolNode(page, names.at(-1)!)).toHaveAttribute("data-run-state", "succeeded");

  // a second run, held at step_1's gate; drag the canvas by hand while it runs: following turns off, and a
  // toast says so
  const gates = createGates("follow");
  const slow = gates.gate(getChainSpec({ id: `${id}-slow`, tools: names, latencyMs: 0 }), [names[0]!]);
  await createAgent(request, { ...slow, planner: { maxIters: 30 }, layout });
  await openAgent(page, `${id}-slow`);
  await startRunFromDesigner(page, "walk slowly");
  await expect(follow).toHaveAttribute("aria-pressed", "true");
  await expect(toolNode(page, names[0]!)).toHaveAttribute("data-run-state", "running", { timeout: 20_000 });
  const pane = await page.locator(".react-flow__pane").boundingBox();
  if (!pane) throw new Error("no pane");
  await page.mouse.move(pane.x + 200, pane.y + pane.height - 120);
  await page.mouse.down();
  await page.mouse.move(pane.x + 320, pane.y + pane.height - 100, { steps: 6 });
  await page.mouse.up();
  await expect(follow).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByTestId("toast-info")).toContainText("no longer follows the run");
  // remembered across a reload
  await page.reload();
  await expect(page.getByTestId("follow-run")).toHaveAttribute("aria-pressed", "false");
  await page.getByTestId("follow-run").click();
  await expect(page.getByTestId("follow-run")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("run-status")).toHaveText("running");
  await gates.openAll();
  await expect(page.getByTestId("run-status")).toHaveText("finished", { timeout: 30_000 });
});

test("the 5-tool example and a 10-tool agent show whole with names at a readable size", async ({
  page,
  request,
}) => {
  await openAgent(page, "document-pipeline");
  const nodes = page.locator(".react-flow__node-tool");
  await expect.poll(() => getRenderedNameSize(nodes.first())).toBeGreaterThanOrEqual(LEGIBLE_PX);
  await expect(() => expectAllNodesInCanvas(page, 5)).toPass();
  for (const node of await nodes.all())
    expect(await getRenderedNameSize(node)).toBeGreaterThanOrEqual(LEGIBLE_PX);
  await saveScreenshot(page, "canvas-polish-five-tools");

  // ten tools without a layout: auto-layout wraps them into rows that fit at a readable zoom
  const id = getUniqueId("ten");
  const names = Array.from({ length: 10 }, (_, index) => `tool_${index + 1}`);
  await createAgent(request, getChainSpec({ id, tools: names, latencyMs: 0 }));
  await openAgent(page, id);
  await page.getByTestId("command-auto-layout").click();
  await expect.poll(() => getRenderedNameSize(toolNode(page, "tool_10"))).toBeGreaterThanOrEqual(LEGIBLE_PX);
  await expect
    .poll(async () => (await toolNode(page, "tool_10").boundingBox())?.y ?? 0)
    .toBeGreaterThan(((await toolNode(page, "tool_1").boundingBox())?.y ?? 0) + 100);
  await expect(() => expectAllNodesInCanvas(page, 10)).toPass();
  for (const node of await nodes.all())
    expect(await getRenderedNameSize(node)).toBeGreaterThanOrEqual(LEGIBLE_PX);
  await saveScreenshot(page, "canvas-polish-ten-tools");
  await page.getByTestId("save-button").click();
  await expect(page.getByTestId("save-status")).toHaveText("Saved · v2");

  // a new agent from a template opens at a readable zoom too
  await createAgentInPage(page, { name: "Fresh pipeline", id: getUniqueId("fresh"), template: "pipeline" });
  await expect.poll(() => getRenderedNameSize(nodes.first())).toBeGreaterThanOrEqual(LEGIBLE_PX);
});
