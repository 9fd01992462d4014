import { expect, test } from "./fixtures.js";
import {
  addMockTool,
  connectTools,
  createAgent,
  getAgent,
  openDesigner,
  readDocumentJson,
  save,
  saveScreenshot,
  selectTool,
  toolNode,
} from "./designer-helpers.js";

test("build an agent from scratch, save it, reload and find it identical", async ({ page, request }) => {
  await openDesigner(page);
  await expect(page.getByTestId("agent-list")).toContainText("Sharded research");
  await createAgent(page, { name: "E2E research", id: "e2e-research" });
  await expect(page.getByTestId("agent-id-input")).toBeEditable();
  await expect(page.getByTestId("canvas-empty")).toBeVisible();

  await addMockTool(page, "search");
  await addMockTool(page, "fetch");
  await addMockTool(page, "summarize");
  await expect(page.getByTestId("canvas-empty")).toBeHidden();
  // tools added from the palette line up left to right, all in view, so edges between them run forwards
  await expect
    .poll(async () => {
      const boxes = await Promise.all(
        ["search", "fetch", "summarize"].map((name) => toolNode(page, name).boundingBox()),
      );
      const canvas = await page.getByTestId("canvas").boundingBox();
      if (!canvas || boxes.some((box) => box === null)) return "not laid out";
      const [a, b, c] = boxes as { x: number; y: number; width: number; height: number }[];
      const inView = boxes.every(
        (box) => box !== null && box.x >= canvas.x && box.x + box.width <= canvas.x + canvas.width,
      );
      return { leftToRight: a!.x + a!.width < b!.x && b!.x + b!.width < c!.x, row: a!.y === c!.y, inView };
    })
    .toEqual({ leftToRight: true, row: true, inView: true });
  await saveScreenshot(page, "designer-added-tools");

  // summarize takes `result`, which search and fetch produce: the schemas suggest auto-seq edges
  await selectTool(page, "summarize");
  await page.getByTestId("args-schema-field-0-name").fill("result");
  const suggestion = page.getByTestId("accept-suggestion-search-summarize");
  await expect(suggestion).toBeVisible();
  await suggestion.click();
  await expect(page.getByTestId("edge-search-summarize")).toHaveAttribute("data-kind", "auto_seq");
  await expect(toolNode(page, "summarize")).toContainText("auto");

  // an order edge, drawn by hand with the order kind picked in the legend
  await page.getByTestId("edge-kind-order").click();
  await connectTools(page, "search", "fetch");
  await expect(page.getByTestId("edge-search-fetch")).toHaveAttribute("data-kind", "order");

  // a parallel group around fetch and search, joined by summarize
  await selectTool(page, "search");
  await selectTool(page, "fetch", { add: true });
  await page.keyboard.press("ControlOrMeta+g");
  await expect(page.getByTestId("group-inspector")).toBeVisible();
  await page.getByTestId("group-name-input").fill("Gather");
  await expect(page.getByTestId("group-id-input")).not.toBeEditable();
  await page.getByTestId("group-join-toggle").check();
  await page.getByTestId("group-join-tool").selectOption("summarize");
  // summarize's `result` is a string: it cannot take the branches' results (an array), so nothing is
  // injected until it has an argument that can, which one click adds
  await expect(page.getByTestId("group-join-no-results-arg")).toBeVisible();
  await page.getByTestId("group-join-add-results-arg").click();
  await expect(page.getByTestId("group-join-no-results-arg")).toBeHidden();
  await expect(page.getByTestId("group-join-inject").getByLabel("Inject name")).toHaveValue("results");
  await expect(toolNode(page, "summarize")).toContainText("join");

  // hints: prefer search, budget of two parallel branches
  await page.getByTestId("tab-hints").click();
  await page.getByTestId("hint-prefer_nodes-search").check();
  await page.getByTestId("budget-max-parallel").fill("2");
  await expect(page.getByTestId("save-status")).toHaveText("Not saved yet");

  // tidy up with elkjs: in reading order (left to right, wrapped into rows), the group kept together
  await page.getByTestId("command-auto-layout").click();
  await expect
    .poll(async () => {
      const search = await toolNode(page, "search").boundingBox();
      const summarize = await toolNode(page, "summarize").boundingBox();
      if (!search || !summarize) return "not laid out";
      if (summarize.y - search.y > search.height) return "on a later row";
      return summarize.x - search.x > 100 ? "to the right on the same row" : "not after search";
    })
    .toMatch(/later row|to the right/);
  await page.getByTestId("tab-inspector").click();
  await selectTool(page, "summarize");
  await saveScreenshot(page, "designer-built-agent");

  await save(page, 1);
  const saved = await getAgent(request, "e2e-research");
  const spec = saved.spec as {
    tools: { name: string }[];
    edges: { kind: string; source: string; target: string }[];
    groups: { name: string; members: string[]; join?: { tool: string; inject: Record<string, string> } }[];
    hints: { prefer_nodes: string[]; budget_hints: { max_parallel?: number } };
  };
  expect(spec.tools.map((tool) => tool.name)).toEqual(["search", "fetch", "summarize"]);
  expect(spec.edges.map((edge) => `${edge.kind}:${edge.source}->${edge.target}`).sort()).toEqual([
    "auto_seq:search->summarize",
    "order:search->fetch",
  ]);
  expect(spec.groups).toEqual([
    expect.objectContaining({
      name: "Gather",
      members: ["search", "fetch"],
      join: expect.objectContaining({ tool: "summarize", inject: { results: "$results" } }),
    }),
  ]);
  expect(spec.hints.prefer_nodes).toEqual(["search"]);
  expect(spec.hints.budget_hints.max_parallel).toBe(2);

  await page.reload();
  await expect(page.getByTestId("save-status")).toHaveText("Saved · v1");
  await expect(toolNode(page, "summarize")).toBeVisible();
  await expect(page.getByTestId("group-node-group")).toBeVisible();
  expect(await readDocumentJson(page)).toEqual(saved.spec);
  await expect(page).toHaveURL(/#\/agents\/e2e-research$/);
  // the id is the agent's address once saved: shown, not editable
  await page.getByTestId("canvas").click({ position: { x: 20, y: 300 } });
  await expect(page.getByTestId("agent-id-input")).not.toBeEditable();
});
