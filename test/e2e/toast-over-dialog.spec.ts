import { expect, test } from "./fixtures.js";
import { openDesigner, saveScreenshot } from "./designer-helpers.js";

/**
 * A toast raised while a modal dialog is open (an export that fails) shows over the dialog and its backdrop,
 * where it can be read and dismissed: a modal <dialog> sits above every z-index, so toasts render inside it.
 */
test("an export's error toast shows on top of the open Export dialog, readable and dismissable", async ({
  page,
}) => {
  await openDesigner(page, "#/agents/support-triage");
  // The server of this suite is built with the export runtime: answer as one built without it did.
  await page.route(/\/api\/agents\/support-triage\/export\?format=ts-project$/, (route) =>
    route.fulfill({
      status: 500,
      contentType: "application/json",
      body: JSON.stringify({
        code: "internal",
        message:
          "The ts-project export ships a bundled Waddle runtime that this server was not built with: run `npm run build` (or `node scripts/build-export-runtime.mjs`) and export again.",
        details: { reason: "export_runtime_missing" },
      }),
    }),
  );
  await page.getByTestId("command-export").click();
  const dialog = page.getByTestId("export-dialog");
  await dialog.getByTestId("export-tab-ts-project").click();
  await dialog.getByTestId("export-download-ts-project").click();

  const toast = page.getByTestId("toast-error");
  await expect(toast).toContainText("Export failed: The ts-project export ships a bundled Waddle runtime");
  await expect(dialog).toBeVisible();
  const onTop = await toast.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && element.contains(hit);
  });
  expect(onTop, "the element at the toast's centre is the toast").toBe(true);
  await saveScreenshot(page, "toast-over-export-dialog");

  await toast.getByRole("button", { name: "Dismiss" }).click();
  await expect(toast).toBeHidden();
  await expect(dialog).toBeVisible();

  // With the dialog closed, toasts are back on the page itself.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.getByTestId("command-export").click();
  await dialog.getByTestId("export-tab-ts-project").click();
  await dialog.getByTestId("export-download-ts-project").click();
  await expect(toast).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(toast).toBeVisible();
  expect(await toast.evaluate((element) => element.closest("dialog") === null)).toBe(true);
});
