import { expect, test } from "./fixtures.js";
import { createAgent, openDesigner, saveScreenshot, toolNode } from "./designer-helpers.js";

test("agents: search, duplicate, rename, delete with confirmation, and the unsaved-changes guard", async ({
  page,
  request,
}) => {
  await openDesigner(page);
  const list = page.getByTestId("agent-list");
  await page.getByTestId("agent-search").fill("support tri");
  await expect(list.locator(".list-item")).toHaveCount(1);
  await expect(page.getByTestId("agent-item-support-triage")).toBeVisible();
  await page.getByTestId("agent-search").fill("");

  await page.getByTestId("agent-item-support-triage").hover();
  await page.getByTestId("agent-duplicate-support-triage").click();
  await expect(page.getByTestId("doc-name")).toHaveText("Copy of Support triage");
  await expect(page).toHaveURL(/#\/agents\/support-triage-copy$/);

  await page.getByTestId("agent-item-support-triage-copy").hover();
  await page.getByTestId("agent-rename-support-triage-copy").click();
  await page.getByTestId("rename-input").fill("Triage, my way");
  await page.getByTestId("rename-accept").click();
  await expect(page.getByTestId("save-status")).toHaveText("Saved · v2");
  await expect(page.getByTestId("agent-item-support-triage-copy")).toContainText("Triage, my way");

  // leaving unsaved changes asks first
  await page.getByTestId("agent-name-input").fill("Triage, edited");
  await page.getByTestId("agent-item-email-approval").locator(".list-main").click();
  const confirm = page.getByTestId("confirm-dialog");
  await expect(confirm).toContainText("Discard unsaved changes?");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("doc-name")).toHaveText("Triage, edited");
  await page.getByTestId("agent-item-email-approval").locator(".list-main").click();
  await confirm.getByTestId("confirm-accept").click();
  await expect(page.getByTestId("doc-name")).toHaveText("Email with approval");

  // a new agent can start as a copy of a saved one (the examples are saved agents)
  await page.getByTestId("new-agent").click();
  const newAgent = page.getByTestId("new-agent-dialog");
  await newAgent.getByTestId("new-agent-name").fill("From an example");
  await newAgent.getByTestId("new-agent-copy-of").selectOption("sharded-research");
  await newAgent.getByTestId("new-agent-create").click();
  await expect(page.getByTestId("doc-name")).toHaveText("From an example");
  await expect(page.getByTestId("group-node-sources")).toContainText("Search all sources");
  await page.getByTestId("save-button").click();
  await expect(page.getByTestId("save-status")).toHaveText("Saved · v1");
  expect((await request.get("/api/agents/from-an-example")).status()).toBe(200);
  await page.getByTestId("tab-agents").click();

  await page.getByTestId("agent-item-support-triage-copy").hover();
  await page.getByTestId("agent-delete-support-triage-copy").click();
  await expect(confirm).toContainText("cannot be undone");
  await confirm.getByTestId("confirm-accept").click();
  await expect(page.getByTestId("agent-item-support-triage-copy")).toHaveCount(0);
  expect((await request.get("/api/agents/support-triage-copy")).status()).toBe(404);

  // in a 1024×700 window the edge legend wraps inside the narrow canvas instead of being cut off
  await page.setViewportSize({ width: 1024, height: 700 });
  const legend = await page.getByTestId("edge-legend").boundingBox();
  const canvas = await page.getByTestId("canvas").boundingBox();
  const toggle = await page.getByTestId("toggle-suggestions").boundingBox();
  if (!legend || !canvas || !toggle) throw new Error("the legend, the canvas and the toggle should be shown");
  expect(legend.x + legend.width).toBeLessThanOrEqual(canvas.x + canvas.width);
  expect(toggle.x + toggle.width).toBeLessThanOrEqual(canvas.x + canvas.width);
});

test("palette: drag tools and a group frame onto the canvas; drag a tool into the frame and out", async ({
  page,
  request,
}) => {
  await openDesigner(page);
  await createAgent(page, { name: "Dragged together", id: "e2e-drag" });
  const canvas = page.getByTestId("canvas");
  const box = await canvas.boundingBox();
  if (!box) throw new Error("no canvas");

  await page
    .getByTestId("palette-group")
    .dragTo(canvas, { targetPosition: { x: box.width / 2 - 120, y: box.height / 2 } });
  const frame = page.getByTestId("group-node-group");
  await expect(frame).toContainText("Drag tools into this frame");
  await page
    .getByTestId("palette-new-http")
    .dragTo(canvas, { targetPosition: { x: box.width / 2 + 250, y: box.height / 2 - 150 } });
  await expect(toolNode(page, "http_tool")).toBeVisible();
  await page
    .getByTestId("palette-module-calculator")
    .dragTo(canvas, { targetPosition: { x: box.width / 2 + 250, y: box.height / 2 + 150 } });
  await expect(toolNode(page, "calculator")).toBeVisible();
  await expect(page.getByTestId("tool-inspector")).toContainText("calculator");

  // drag http_tool by its title into the frame: it becomes a member
  const dragNode = async (name: string, to: { x: number; y: number }) => {
    const handle = await toolNode(page, name).locator(".tool-name").boundingBox();
    if (!handle) throw new Error(`no node ${name}`);
    await page.mouse.move(handle.x + 10, handle.y + 5);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 12 });
    await page.mouse.up();
  };
  const frameBox = await frame.boundingBox();
  if (!frameBox) throw new Error("no frame");
  await dragNode("http_tool", { x: frameBox.x + 40, y: frameBox.y + 60 });
  await expect(frame).toContainText("parallel · 1");
  await saveScreenshot(page, "designer-frame-membership");
  await page.keyboard.press("ControlOrMeta+z");
  await expect(frame).toContainText("parallel · 0");
  await page.keyboard.press("ControlOrMeta+Shift+z");
  await expect(frame).toContainText("parallel · 1");

  await page.keyboard.press("ControlOrMeta+s");
  await expect(page.getByTestId("save-status")).toHaveText("Saved · v1");
  const saved = (await (await request.get("/api/agents/e2e-drag")).json()) as {
    spec: { groups: { members: string[] }[]; tools: { name: string; impl: { kind: string } }[] };
  };
  expect(saved.spec.groups[0]?.members).toEqual(["http_tool"]);
  expect(saved.spec.tools.map((tool) => `${tool.name}:${tool.impl.kind}`)).toEqual([
    "http_tool:http",
    "calculator:module",
  ]);

  // and out again, onto the open canvas
  const memberBox = await toolNode(page, "http_tool").boundingBox();
  if (!memberBox) throw new Error("no member");
  await dragNode("http_tool", { x: memberBox.x + 10, y: memberBox.y + 330 });
  await expect(frame).toContainText("parallel · 0");
});
