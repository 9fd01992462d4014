import { mkdirSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { expect } from "./fixtures.js";

/** Where specs save screenshots of the main views (gitignored). */
export const ARTIFACTS_DIR = path.join(import.meta.dirname, "artifacts");

/** Saves a screenshot of the page under test/e2e/artifacts/. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`) });
}

/** Opens the designer and waits for the agent list. */
export async function openDesigner(page: Page, hash = ""): Promise<void> {
  await page.goto(`/${hash}`);
  await expect(page.getByTestId("agent-list")).toBeVisible();
  await expect(page.getByTestId("canvas")).toBeVisible();
}

/** Starts a new, unsaved agent from a template. */
export async function createAgent(
  page: Page,
  options: { name: string; id: string; template?: "blank" | "pipeline" | "fan-out" },
): Promise<void> {
  await page.getByTestId("tab-agents").click();
  await page.getByTestId("new-agent").click();
  const dialog = page.getByTestId("new-agent-dialog");
  await dialog.getByTestId("new-agent-name").fill(options.name);
  await dialog.getByTestId("new-agent-id").fill(options.id);
  await dialog.getByTestId(`template-${options.template ?? "blank"}`).click();
  await dialog.getByTestId("new-agent-create").click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("doc-name")).toHaveText(options.name);
}

/** The canvas node of a tool. */
export function toolNode(page: Page, name: string): Locator {
  return page.getByTestId(`tool-node-${name}`);
}

/** Adds a mock tool from the palette and renames it. */
export async function addMockTool(page: Page, name: string): Promise<void> {
  await page.getByTestId("tab-palette").click();
  await page.getByTestId("palette-new-mock").click();
  await renameSelectedTool(page, name);
}

/** Renames the tool open in the inspector. */
export async function renameSelectedTool(page: Page, name: string): Promise<void> {
  const input = page.getByTestId("tool-name-input");
  await input.fill(name);
  await input.press("Enter");
  await expect(toolNode(page, name)).toBeVisible();
}

/** Selects a tool by clicking its node (on the title, away from the handles). */
export async function selectTool(page: Page, name: string, options: { add?: boolean } = {}): Promise<void> {
  await toolNode(page, name)
    .locator(".tool-name")
    .click({ modifiers: options.add ? ["ControlOrMeta"] : [] });
}

/** Drags from one tool's output handle to another tool's input handle. */
export async function connectTools(page: Page, source: string, target: string): Promise<void> {
  const from = await toolNode(page, source).locator(".react-flow__handle.source").boundingBox();
  const to = await toolNode(page, target).locator(".react-flow__handle.target").boundingBox();
  if (!from || !to) throw new Error(`cannot find the handles of ${source} and ${target}`);
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 8 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** The document as the designer holds it, read from the export dialog's JSON. */
export async function readDocumentJson(page: Page): Promise<unknown> {
  await page.getByTestId("command-export").click();
  const dialog = page.getByTestId("export-dialog");
  const text = await dialog.getByTestId("export-json").inputValue();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  return JSON.parse(text) as unknown;
}

/** Saves and waits until the header says the version is saved. */
export async function save(page: Page, version: number): Promise<void> {
  await page.getByTestId("save-button").click();
  await expect(page.getByTestId("save-status")).toHaveText(`Saved · v${version}`);
}

/** GET /api/agents/:id, as a record with its spec. */
export async function getAgent(
  request: APIRequestContext,
  id: string,
): Promise<{ id: string; version: number; spec: Record<string, unknown> }> {
  const response = await request.get(`/api/agents/${id}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as { id: string; version: number; spec: Record<string, unknown> };
}

/** Starts another built server (for specs that need other settings, such as a token); stop it after. */
export async function startServer(
  env: Record<string, string>,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { spawnServer } = await import("@waddle/server/testing");
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-e2e-extra-"));
  const server = await spawnServer({
    code: "built",
    inheritEnv: true,
    env: { WADDLE_DATA_DIR: dataDir, OPENAI_API_KEY: "", NODE_ENV: "production", ...env },
  });
  return {
    url: server.url,
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
