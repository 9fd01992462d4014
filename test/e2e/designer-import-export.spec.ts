import { readFileSync } from "node:fs";
import { expect, test } from "./fixtures.js";
import {
  getAgent,
  openDesigner,
  readDocumentJson,
  save,
  saveScreenshot,
  toolNode,
} from "./designer-helpers.js";

test("export an agent as JSON, import it back, save it: the same agent", async ({ page, request }) => {
  const original = await getAgent(request, "support-triage");
  await openDesigner(page, "#/agents/support-triage");
  await expect(page.getByTestId("save-status")).toHaveText("Saved · v1");

  await page.getByTestId("command-export").click();
  const exportDialog = page.getByTestId("export-dialog");
  const exported = await exportDialog.getByTestId("export-json").inputValue();
  expect(JSON.parse(exported)).toEqual(original.spec);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    exportDialog.getByTestId("export-download").click(),
  ]);
  expect(download.suggestedFilename()).toBe("support-triage.json");
  const file = await download.path();
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(original.spec);
  await exportDialog.getByTestId("export-tab-ts").click();
  await expect(exportDialog.getByTestId("export-ts")).toContainText("@waddle/server/runtime");
  await saveScreenshot(page, "designer-export");
  // Every format downloads: the module, and the two project zips.
  for (const [tab, button, filename] of [
    ["export-tab-ts", "export-download-ts", "support-triage.ts"],
    ["export-tab-ts-project", "export-download-ts-project", "support-triage-ts.zip"],
    ["export-tab-penguiflow", "export-download-penguiflow", "support-triage-penguiflow.zip"],
  ] as const) {
    await exportDialog.getByTestId(tab).click();
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      exportDialog.getByTestId(button).click(),
    ]);
    expect(file.suggestedFilename()).toBe(filename);
    const bytes = readFileSync(await file.path());
    if (filename.endsWith(".zip")) expect(bytes.subarray(0, 4).toString("latin1")).toBe("PK\u0003\u0004");
    else expect(bytes.toString("utf8")).toContain("export function run(");
  }
  await saveScreenshot(page, "designer-export-penguiflow");
  await page.keyboard.press("Escape");

  // import into another open agent: the id is taken, so it comes in as a copy
  await page.getByTestId("agent-item-cached-retrieval").locator(".list-main").click();
  await expect(page.getByTestId("doc-name")).toHaveText("Retrieval with a cached fallback");
  await page.getByTestId("command-import").click();
  const importDialog = page.getByTestId("import-dialog");
  await importDialog.getByTestId("import-file").setInputFiles(file);
  await expect(importDialog.getByTestId("import-kind")).toContainText("an agent spec");
  await importDialog.getByTestId("import-submit").click();
  await expect(importDialog).toBeHidden();
  await expect(page.getByTestId("toast-info")).toContainText("support-triage-2");
  await expect(page.getByTestId("save-status")).toHaveText("Not saved yet");
  await save(page, 1);

  const imported = await getAgent(request, "support-triage-2");
  expect(imported.spec).toEqual({ ...original.spec, id: "support-triage-2" });
  expect(await readDocumentJson(page)).toEqual(imported.spec);
});

test("import PenguiFlow planning hints into the open agent (undoable)", async ({ page }) => {
  // cached_index is not in the agent's ordering_hints: disallowing one of those would be a conflict, refused
  await openDesigner(page, "#/agents/cached-retrieval");
  await expect(page.getByTestId("save-status")).toHaveText("Saved · v1");
  await expect(toolNode(page, "cached_index")).not.toHaveClass(/is-disallowed/);

  await page.getByTestId("command-import").click();
  const dialog = page.getByTestId("import-dialog");
  // JSON that is not an object is refused in the dialog, with the reason
  await dialog.getByTestId("import-text").fill("null");
  await expect(dialog.getByTestId("import-text-error")).toContainText("an import is a JSON object");
  await expect(dialog.getByTestId("import-submit")).toBeDisabled();
  await dialog.getByTestId("import-text").fill(
    JSON.stringify(
      {
        planning_hints: {
          disallow_nodes: ["cached_index"],
          prefer_nodes: ["live_search"],
          budget_hints: { max_cost_usd: 0.25 },
        },
      },
      null,
      2,
    ),
  );
  await expect(dialog.getByTestId("import-kind")).toContainText("PenguiFlow planning hints");
  await saveScreenshot(page, "designer-import");
  await dialog.getByTestId("import-submit").click();
  await expect(dialog).toBeHidden();

  await expect(toolNode(page, "cached_index")).toHaveClass(/is-disallowed/);
  await page.getByTestId("tab-hints").click();
  await expect(page.getByTestId("hint-prefer_nodes-live_search")).toBeChecked();
  await expect(page.getByTestId("budget-max-cost")).toHaveValue("0.25");
  await expect(page.getByTestId("save-status")).toHaveText("Unsaved changes");

  await page.getByTestId("command-undo").click();
  await expect(toolNode(page, "cached_index")).not.toHaveClass(/is-disallowed/);
  await expect(page.getByTestId("save-status")).toHaveText("Saved · v1");
});

test("dark theme and the version history", async ({ page, request }) => {
  await openDesigner(page, "#/agents/sharded-research");
  await expect(page.getByTestId("save-status")).toHaveText("Saved · v1");
  await page.getByTestId("agent-name-input").fill("Sharded research, renamed");
  await save(page, 2);

  await page.getByTestId("command-versions").click();
  const versions = page.getByTestId("versions-dialog");
  await versions.getByTestId("version-1").locator(".list-main").click();
  await expect(versions.getByTestId("version-preview")).toContainText('"name": "Sharded research"');
  await saveScreenshot(page, "designer-versions");
  await versions.getByTestId("restore-version-1").click();
  await expect(page.getByTestId("doc-name")).toHaveText("Sharded research");
  await save(page, 3);
  expect((await getAgent(request, "sharded-research")).spec.name).toBe("Sharded research");

  // the theme is in the header's Settings menu, which stays open while it cycles
  await page.getByTestId("settings-menu").click();
  while ((await page.locator("html").getAttribute("data-theme")) !== "dark")
    await page.getByTestId("theme-toggle").click();
  await page.keyboard.press("Escape");
  await toolNode(page, "merge_results").locator(".tool-name").click();
  await saveScreenshot(page, "designer-dark");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
});
