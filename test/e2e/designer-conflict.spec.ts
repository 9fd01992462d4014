import { expect, test } from "./fixtures.js";
import { getAgent, openDesigner, saveScreenshot } from "./designer-helpers.js";

const baseSpec = {
  version: 1,
  id: "e2e-conflict",
  name: "Conflict base",
  tools: [{ name: "lookup", desc: "Look it up", impl: { kind: "mock", output: { ok: true } } }],
};

test("a conflict on concurrent save shows the dialog, and both choices work", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  const created = await request.post("/api/agents", { data: baseSpec });
  expect(created.status()).toBe(201);
  await openDesigner(page, "#/agents/e2e-conflict");
  await expect(page.getByTestId("save-status")).toHaveText("Saved · v1");

  // we edit version 1 while a direct PUT saves version 2
  await page.getByTestId("agent-name-input").fill("Mine");
  await expect(page.getByTestId("save-status")).toHaveText("Unsaved changes");
  const theirs = await getAgent(request, "e2e-conflict");
  const put = await request.put("/api/agents/e2e-conflict", {
    data: { spec: { ...theirs.spec, name: "Theirs" }, baseVersion: 1 },
  });
  expect(put.status()).toBe(200);

  await page.getByTestId("save-button").click();
  const dialog = page.getByTestId("conflict-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("version 2 was saved since");
  await saveScreenshot(page, "designer-conflict");
  await dialog.getByTestId("conflict-overwrite").click();
  await expect(page.getByTestId("save-status")).toHaveText("Saved · v3");
  expect((await getAgent(request, "e2e-conflict")).spec.name).toBe("Mine");

  // a second browser context saves version 4 while we edit version 3; this time we reload theirs
  await page.getByTestId("agent-name-input").fill("Mine again");
  const other = await browser.newContext({ baseURL });
  const otherPage = await other.newPage();
  await openDesigner(otherPage, "#/agents/e2e-conflict");
  await expect(otherPage.getByTestId("save-status")).toHaveText("Saved · v3");
  await otherPage.getByTestId("agent-name-input").fill("From the other tab");
  await otherPage.getByTestId("save-button").click();
  await expect(otherPage.getByTestId("save-status")).toHaveText("Saved · v4");
  await other.close();

  await page.keyboard.press("ControlOrMeta+s");
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("conflict-reload").click();
  await expect(page.getByTestId("save-status")).toHaveText("Saved · v4");
  await expect(page.getByTestId("agent-name-input")).toHaveValue("From the other tab");
  await expect(page.getByTestId("doc-name")).toHaveText("From the other tab");
  expect((await getAgent(request, "e2e-conflict")).version).toBe(4);
});
