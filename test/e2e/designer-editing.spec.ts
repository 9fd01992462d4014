import { expect, test } from "./fixtures.js";
import {
  addMockTool,
  createAgent,
  openDesigner,
  readDocumentJson,
  saveScreenshot,
  selectTool,
  toolNode,
} from "./designer-helpers.js";

test("an invalid edit shows its issue on the right node, and clicking the issue selects it", async ({
  page,
}) => {
  await openDesigner(page);
  await createAgent(page, { name: "Broken on purpose", id: "e2e-invalid" });
  await addMockTool(page, "lookup");
  await addMockTool(page, "answer");
  await expect(page.getByTestId("issues-count")).toHaveText("Valid");
  // a mock tool starts with one args field and one output field, counted in the singular
  await expect(page.getByTestId("tool-inspector").locator(".section-summary")).toContainText([
    "1 field",
    "1 field",
  ]);
  await expect(
    page.getByTestId("tool-inspector").locator(".section-summary", { hasText: "1 fields" }),
  ).toHaveCount(0);

  // the args schema of `lookup` becomes a string schema: a tool's args must describe an object
  await selectTool(page, "lookup");
  await page.getByTestId("args-schema-tab-json").click();
  await page.getByTestId("args-schema-raw").fill('{"type": "string"');
  await expect(page.getByTestId("args-schema-raw-error")).toBeVisible();
  await expect(page.getByTestId("issues-count")).toHaveText("Valid");
  await page.getByTestId("args-schema-raw").fill('{"type": "string"}');

  await expect(page.getByTestId("issue-badge-lookup")).toBeVisible();
  await expect(page.getByTestId("issue-badge-answer")).toHaveCount(0);
  await expect(page.getByTestId("issues-count")).toHaveAttribute("data-errors", "1");
  await expect(toolNode(page, "lookup")).toHaveClass(/has-errors/);

  await page.getByTestId("tab-issues").click();
  const row = page.getByTestId("issue-row-0");
  await expect(row).toHaveAttribute("data-target", "tool lookup");
  await expect(row).toContainText("must describe an object");
  await saveScreenshot(page, "designer-issues");
  await selectTool(page, "answer");
  await page.getByTestId("tab-issues").click();
  await page.getByTestId("issue-row-0").click();
  await expect(page.getByTestId("tool-inspector")).toContainText("lookup");
  await expect(toolNode(page, "lookup")).toHaveClass(/is-selected/);

  // saving with errors asks first (it would save a version marked invalid); cancelling saves nothing
  await page.getByTestId("save-button").click();
  const confirm = page.getByTestId("confirm-dialog");
  await expect(confirm).toContainText("Save with errors?");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId("save-status")).toHaveAttribute("data-dirty", "true");

  // the field list shows the raw edit too, and fixing it there clears the badge
  await page.getByTestId("tab-inspector").click();
  await page.getByTestId("args-schema-tab-json").click();
  await page
    .getByTestId("args-schema-raw")
    .fill('{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}');
  await page.getByTestId("args-schema-tab-fields").click();
  await expect(page.getByTestId("args-schema-field-0-name")).toHaveValue("city");
  // the error is gone; the mock's output still reads the argument it replaced: a warning, not an error
  await expect(toolNode(page, "lookup")).not.toHaveClass(/has-errors/);
  await expect(page.getByTestId("issues-count")).toHaveText("Valid · 1 warning");

  // the open details follow a moved field, so "Move down" twice moves it two places
  await page.getByTestId("args-schema-add").click();
  await page.getByTestId("args-schema-add").click();
  await page.getByTestId("args-schema-field-0").getByRole("button", { name: "Details" }).click();
  await page.getByTestId("args-schema").getByRole("button", { name: "Move down" }).click();
  await page.getByTestId("args-schema").getByRole("button", { name: "Move down" }).click();
  await expect(page.getByTestId("args-schema-field-2-name")).toHaveValue("city");
  await expect(page.getByTestId("args-schema-field-0-name")).toHaveValue("field");
});

test("undo and redo every document change, from the keyboard and the toolbar", async ({ page }) => {
  await openDesigner(page);
  await createAgent(page, { name: "Undo me", id: "e2e-undo" });
  await addMockTool(page, "first");
  // user text is text, never HTML
  await page.getByTestId("tool-desc-input").fill('<img src=x onerror="window.hacked=1"><b>bold</b>');
  await expect(toolNode(page, "first")).toContainText('<img src=x onerror="window.hacked=1"><b>bold</b>');
  await expect(toolNode(page, "first").locator("img, b")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined();
  await page.getByTestId("tool-desc-input").fill("Looks things up");
  await expect(toolNode(page, "first")).toContainText("Looks things up");

  // typing in one field is one undo step; the rename before it is another
  await page.getByTestId("canvas").click({ position: { x: 20, y: 300 } });
  await page.keyboard.press("ControlOrMeta+z");
  await expect(toolNode(page, "first")).toContainText("Returns a templated result");
  await page.keyboard.press("ControlOrMeta+z");
  await expect(toolNode(page, "mock_tool")).toBeVisible();
  await page.getByTestId("command-undo").click();
  await expect(toolNode(page, "mock_tool")).toHaveCount(0);
  await expect(page.getByTestId("canvas-empty")).toBeVisible();
  await expect(page.getByTestId("command-undo")).toBeDisabled();

  await page.keyboard.press("ControlOrMeta+Shift+z");
  await expect(toolNode(page, "mock_tool")).toBeVisible();
  await page.getByTestId("command-redo").click();
  await page.keyboard.press("ControlOrMeta+y");
  await expect(toolNode(page, "first")).toContainText("Looks things up");
  await expect(page.getByTestId("command-redo")).toBeDisabled();

  // delete from the keyboard, duplicate from the context menu, both undoable
  await selectTool(page, "first");
  await page.keyboard.press("Delete");
  await expect(toolNode(page, "first")).toHaveCount(0);
  await page.keyboard.press("ControlOrMeta+z");
  await toolNode(page, "first").click({ button: "right" });
  await page.getByTestId("menu-duplicate").click();
  await expect(toolNode(page, "first_2")).toBeVisible();
  await page.keyboard.press("ControlOrMeta+z");
  await expect(toolNode(page, "first_2")).toHaveCount(0);
  await expect(toolNode(page, "first")).toBeVisible();

  // the help dialog lists the shortcuts and runs commands like the toolbar
  await page.keyboard.press("?");
  const help = page.getByTestId("shortcuts-dialog");
  await expect(help).toContainText("Undo");
  await saveScreenshot(page, "designer-shortcuts");
  await help.getByTestId("shortcut-redo").click();
  await expect(help).toBeHidden();
  await expect(toolNode(page, "first_2")).toBeVisible();

  // arrow keys move a focused, selected node in the document too (one undo step), not only on screen
  type Layout = { layout: { nodes: Record<string, { x: number; y: number }> } };
  const before = ((await readDocumentJson(page)) as Layout).layout.nodes.first;
  await page.getByTestId("rf__node-first").focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  const moved = ((await readDocumentJson(page)) as Layout).layout.nodes.first;
  expect(moved?.y).toBeGreaterThan(before?.y ?? Infinity);
  await page.getByTestId("canvas").click({ position: { x: 20, y: 300 } });
  await page.keyboard.press("ControlOrMeta+z");
  expect(((await readDocumentJson(page)) as Layout).layout.nodes.first).toEqual(before);
});
