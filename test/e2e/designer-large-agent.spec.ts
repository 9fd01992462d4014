import { expect, test } from "./fixtures.js";
import { openDesigner, saveScreenshot, toolNode } from "./designer-helpers.js";

const COUNT = 150;

/** 150 mock tools in a chain of auto-seq and order edges, ten parallel groups of three. */
function makeLargeSpec() {
  const names = Array.from({ length: COUNT }, (_, index) => `tool_${index}`);
  const groups = Array.from({ length: 10 }, (_, index) => ({
    id: `group-${index}`,
    kind: "parallel",
    name: `Group ${index}`,
    members: names.slice(index * 15 + 1, index * 15 + 4),
  }));
  const grouped = new Set(groups.flatMap((group) => group.members));
  const nodes: Record<string, { x: number; y: number; width?: number; height?: number }> = {};
  names
    .filter((name) => !grouped.has(name))
    .forEach((name, index) => (nodes[name] = { x: (index % 12) * 320, y: Math.floor(index / 12) * 160 }));
  groups.forEach((group, index) => {
    nodes[`group:${group.id}`] = { x: index * 320, y: 2000, width: 288, height: 440 };
    group.members.forEach((member, position) => (nodes[member] = { x: 24, y: 48 + position * 124 }));
  });
  const schema = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
  return {
    version: 1,
    id: "e2e-large",
    name: "Large agent",
    tools: names.map((name) => ({
      name,
      desc: `Step ${name}`,
      argsSchema: schema,
      outSchema: schema,
      impl: { kind: "mock", output: { text: "{{args.text}}" } },
    })),
    edges: names.slice(1).map((name, index) => ({
      id: `e-${index}`,
      kind: index % 2 ? "order" : "auto_seq",
      source: names[index],
      target: name,
    })),
    groups,
    layout: { nodes },
  };
}

test("a 150-tool agent opens, edits and lays out (timings printed, not asserted)", async ({
  page,
  request,
}) => {
  const created = await request.post("/api/agents", { data: makeLargeSpec() });
  expect(created.status()).toBe(201);
  const timings: string[] = [];
  const started = Date.now();
  await openDesigner(page, "#/agents/e2e-large");
  await expect(page.getByTestId("save-status")).toHaveText("Saved · v1");
  await expect(page.locator(".react-flow__node-tool").first()).toBeVisible();
  timings.push(
    `open: ${Date.now() - started} ms (${await page.locator(".react-flow__node-tool").count()} tool nodes rendered of ${COUNT})`,
  );

  await page.getByTestId("command-fit-view").click();
  await toolNode(page, "tool_0").locator(".tool-name").click();
  const typed = Date.now();
  await page.getByTestId("tool-desc-input").pressSequentially("edited", { delay: 0 });
  await expect(toolNode(page, "tool_0")).toContainText("editedStep tool_0");
  timings.push(`typing 6 characters into a description until the node shows them: ${Date.now() - typed} ms`);

  const laidOut = Date.now();
  const before = await toolNode(page, "tool_0").boundingBox();
  await page.getByTestId("command-auto-layout").click();
  await expect
    .poll(async () => JSON.stringify(await toolNode(page, "tool_0").boundingBox()))
    .not.toBe(JSON.stringify(before));
  timings.push(`auto-layout: ${Date.now() - laidOut} ms`);
  await saveScreenshot(page, "designer-large-agent");
  await page.keyboard.press("ControlOrMeta+z");
  await expect(page.getByTestId("save-status")).toHaveText("Unsaved changes");
  test.info().annotations.push(...timings.map((description) => ({ type: "timing", description })));
  console.log(timings.join("\n"));
});
