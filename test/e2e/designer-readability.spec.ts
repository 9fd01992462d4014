import { listExampleAgentFiles } from "@waddle/examples";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures.js";
import { openDesigner, saveScreenshot, toolNode } from "./designer-helpers.js";

/** The smallest size a tool name may render at when an agent opens (12.5 px text at zoom 0.8). */
const LEGIBLE_PX = 10;

const EXAMPLE_IDS = listExampleAgentFiles().map(({ id }) => id);

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function isInside(inner: Box, outer: Box): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

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

async function getBoxes(locator: Locator): Promise<Box[]> {
  const boxes = await Promise.all((await locator.all()).map((item) => item.boundingBox()));
  return boxes.filter((box): box is Box => box !== null);
}

/** Every "+ auto-seq" chip in view lies clear of every tool node. */
async function expectChipsOffNodes(page: Page): Promise<number> {
  const canvas = await page.getByTestId("canvas").boundingBox();
  if (!canvas) throw new Error("no canvas");
  const chips = (await getBoxes(page.locator(".suggestion-chip"))).filter((chip) => overlaps(chip, canvas));
  const nodes = await getBoxes(page.locator(".react-flow__node-tool"));
  for (const chip of chips) {
    expect(
      nodes.filter((node) => overlaps(chip, node)),
      "a suggestion chip covers a tool node",
    ).toEqual([]);
  }
  return chips.length;
}

/** A row of four tools whose schemas make the designer suggest auto-seq edges; an edge skips beta. */
function makeRowSpec(id: string) {
  const object = (key: string) => ({
    type: "object",
    properties: { [key]: { type: "string" } },
    required: [key],
  });
  const tool = (name: string, input: string, output: string) => ({
    name,
    desc: `The ${name} step of the row`,
    argsSchema: object(input),
    outSchema: object(output),
    impl: { kind: "mock", output: { [output]: "x" } },
  });
  return {
    version: 1,
    id,
    name: "Readable row",
    tools: [
      tool("alpha", "text", "text"),
      tool("beta", "text", "other"),
      tool("gamma", "other", "text"),
      tool("delta", "text", "z"),
    ],
    edges: [
      { id: "alpha-beta", kind: "order", source: "alpha", target: "beta" },
      { id: "beta-gamma", kind: "order", source: "beta", target: "gamma" },
      { id: "alpha-gamma", kind: "order", source: "alpha", target: "gamma" },
    ],
    groups: [],
    layout: {
      nodes: {
        alpha: { x: 0, y: 0 },
        beta: { x: 300, y: 0 },
        gamma: { x: 600, y: 0 },
        delta: { x: 300, y: 200 },
      },
    },
  };
}

for (const id of EXAMPLE_IDS) {
  test(`the ${id} example opens with legible tool names and chips off the nodes`, async ({ page }) => {
    await openDesigner(page, `#/agents/${id}`);
    await expect(page.getByTestId("save-status")).toHaveText(/Saved/);
    const nodes = page.locator(".react-flow__node-tool");
    await expect(nodes.first()).toBeVisible();
    // the first view is set once the canvas has its size; names then render at 10 px or more
    await expect.poll(() => getRenderedNameSize(nodes.first())).toBeGreaterThanOrEqual(LEGIBLE_PX - 0.01);
    const canvas = await page.getByTestId("canvas").boundingBox();
    if (!canvas) throw new Error("no canvas");
    const inView = (await getBoxes(nodes)).filter((box) => isInside(box, canvas));
    expect(inView.length, "at least the start of the agent is in view").toBeGreaterThan(0);
    await expectChipsOffNodes(page);
    await saveScreenshot(page, `designer-readability-${id}`);
  });
}

test("an edge past a tool bends round it, chips stay off the nodes, a new group lands in free space", async ({
  page,
  request,
}) => {
  const created = await request.post("/api/agents", { data: makeRowSpec("e2e-readable-row") });
  expect(created.status()).toBe(201);
  await openDesigner(page, "#/agents/e2e-readable-row");
  await expect(toolNode(page, "delta")).toBeVisible();
  await expect.poll(() => getRenderedNameSize(toolNode(page, "alpha"))).toBeGreaterThanOrEqual(LEGIBLE_PX);

  // alpha -> gamma: no point of the drawn path lies on beta
  const beta = await toolNode(page, "beta").boundingBox();
  if (!beta) throw new Error("no beta");
  const points = await page
    .getByTestId("rf__edge-alpha-gamma")
    .locator("path.react-flow__edge-path")
    .evaluate((element) => {
      const path = element as SVGPathElement;
      const matrix = path.getScreenCTM();
      const length = path.getTotalLength();
      if (!matrix) return [];
      return Array.from({ length: 41 }, (_, index) => {
        const point = path.getPointAtLength((length * index) / 40).matrixTransform(matrix);
        return { x: point.x, y: point.y };
      });
    });
  expect(points.length).toBeGreaterThan(0);
  const onBeta = points.filter(
    (point) =>
      point.x > beta.x && point.x < beta.x + beta.width && point.y > beta.y && point.y < beta.y + beta.height,
  );
  expect(onBeta, "the alpha -> gamma edge runs over beta").toEqual([]);

  expect(await expectChipsOffNodes(page)).toBeGreaterThan(0);

  // the middle of the view is on beta: the palette's group lands beside the tools, not over them
  await page.getByTestId("tab-palette").click();
  await page.getByTestId("palette-group").click();
  const frame = page.getByTestId("group-node-group");
  await expect(frame).toBeVisible();
  const frameBox = await frame.boundingBox();
  if (!frameBox) throw new Error("no frame");
  const tools = await getBoxes(page.locator(".react-flow__node-tool"));
  expect(tools).toHaveLength(4);
  expect(
    tools.filter((tool) => overlaps(tool, frameBox)),
    "the new group frame covers tools",
  ).toEqual([]);
  await saveScreenshot(page, "designer-readability-row");
});
