import { expect, test } from "./fixtures.js";
import { addMockTool, createAgent, openDesigner, saveScreenshot, toolNode } from "./designer-helpers.js";

test("auto-layout keeps an empty parallel group at its size: no 'too small' errors, and it still takes a tool", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDesigner(page);
  await createAgent(page, { name: "Empty frame", id: "empty-frame" });
  await addMockTool(page, "first_step");
  await page.getByTestId("palette-group").click();
  const frame = page.getByTestId("group-node-group");
  await expect(frame).toContainText("Drag tools into this frame");
  const toolBefore = JSON.stringify(await toolNode(page, "first_step").boundingBox());

  await page.getByTestId("command-auto-layout").click();
  // the layout has landed once the tool moved (ELK runs asynchronously), and the view once it stops
  await expect
    .poll(async () => JSON.stringify(await toolNode(page, "first_step").boundingBox()))
    .not.toBe(toolBefore);
  let last = "";
  await expect
    .poll(async () => {
      const now = JSON.stringify(await frame.boundingBox());
      const settled = now === last;
      last = now;
      return settled;
    })
    .toBe(true);
  await expect(page.getByTestId("issues-count")).toHaveAttribute("data-errors", "0");
  // a new group's 320×260, whatever the zoom the view fitted to
  const after = await frame.boundingBox();
  expect(after?.width ?? 0).toBeGreaterThan(150);
  expect((after?.width ?? 0) / (after?.height ?? 1)).toBeCloseTo(320 / 260, 1);
  await saveScreenshot(page, "empty-group-after-auto-layout");

  // the frame still takes a tool dragged into it
  const target = await frame.boundingBox();
  const handle = await toolNode(page, "first_step").locator(".tool-name").boundingBox();
  if (!target || !handle) throw new Error("no frame or tool on screen");
  await page.mouse.move(handle.x + 10, handle.y + 5);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 12 });
  await page.mouse.up();
  await expect(frame).not.toContainText("Drag tools into this frame");
  await expect(frame).toContainText("parallel · 1");
});
