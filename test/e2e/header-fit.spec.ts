import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.js";
import { saveScreenshot, startServer } from "./designer-helpers.js";

const TOKEN = "e2e-header-token-0123456789abcdef";
const LONG_NAME = "Email approval with a rather long name";

async function api(url: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function createKey(url: string, body: Record<string, unknown>): Promise<{ id: string; key: string }> {
  const response = await api(url, "POST", "/api/keys", body);
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; key: string };
}

/** Saves a copy of the email-approval example under a long name. */
async function createLongNamedAgent(url: string): Promise<string> {
  const source = (await (await api(url, "GET", "/api/agents/email-approval")).json()) as {
    spec: Record<string, unknown>;
  };
  const id = "long-email-approval";
  const response = await api(url, "POST", "/api/agents", { ...source.spec, id, name: LONG_NAME });
  expect(response.status).toBe(201);
  return id;
}

async function signIn(page: Page, key: string): Promise<void> {
  await page.getByTestId("signin-key").fill(key);
  await page.getByTestId("signin-submit").click();
}

/** How much of the agent name the header shows: its visible width over the width its text needs. */
async function docNameShown(page: Page): Promise<number> {
  return page
    .getByTestId("doc-name")
    .evaluate((element) => Math.min(1, element.clientWidth / element.scrollWidth));
}

test("a signed-in header at 1440 and 1280 keeps the agent name whole; whoami and sign out still work", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const server = await startServer({ WADDLE_TOKEN: TOKEN });
  try {
    const editor = await createKey(server.url, { name: "Edwina Editor-Longfellow", role: "editor" });
    const agentId = await createLongNamedAgent(server.url);
    await page.goto(`${server.url}/#/agents/${agentId}`);
    await signIn(page, editor.key);
    await expect(page.getByTestId("doc-name")).toHaveText(LONG_NAME);
    await expect(page.getByTestId("doc-name")).toHaveAttribute("title", LONG_NAME);
    await expect(page.getByTestId("panel-left")).toBeVisible();
    await expect(page.getByTestId("panel-right")).toBeVisible();
    await expect(page.getByTestId("whoami")).toHaveText(/Edwina Editor-Longfellow · editor/);

    // The header is complete once the server's health is in: the offline model's badge shows.
    await expect(page.locator(".doc-offline")).toBeVisible();
    await expect(page.getByTestId("save-status")).toHaveText(/^Saved · v1$/);

    // 1440×900, both panels open: the whole name shows.
    expect(await docNameShown(page)).toBe(1);
    const header = await page.locator(".app-header").evaluate((element) => ({
      scroll: element.scrollWidth,
      client: element.clientWidth,
    }));
    expect(header.scroll).toBeLessThanOrEqual(header.client);
    await saveScreenshot(page, "header-fit-1440");

    // The avatar opens a card with the name and role; Escape closes it.
    await page.getByTestId("whoami").click();
    const card = page.getByTestId("whoami-card");
    await expect(card).toBeVisible();
    await expect(card).toContainText("Edwina Editor-Longfellow");
    await expect(card).toContainText("editor");
    await saveScreenshot(page, "header-fit-whoami-card");
    await page.keyboard.press("Escape");
    await expect(card).toBeHidden();

    // 1280×800: still most of the name, nothing spills out of the header.
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await docNameShown(page)).toBeGreaterThanOrEqual(0.9);
    const narrow = await page.locator(".app-header").evaluate((element) => ({
      scroll: element.scrollWidth,
      client: element.clientWidth,
    }));
    expect(narrow.scroll).toBeLessThanOrEqual(narrow.client);
    await saveScreenshot(page, "header-fit-1280");

    // Access (disabled for an editor, with its reason) and sign out stay one click away.
    await expect(page.getByTestId("open-access")).toBeDisabled();
    await expect(page.getByTestId("open-access")).toHaveAttribute("title", /Only admins/);
    await page.getByTestId("sign-out").click();
    await expect(page.getByTestId("signin-key")).toBeVisible();
  } finally {
    await server.stop();
  }
});

test("an admin revokes a signed-in editor's key: that page returns to sign-in and says why", async ({
  page,
  browser,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const server = await startServer({ WADDLE_TOKEN: TOKEN });
  const editorContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const editor = await createKey(server.url, { name: "Ed Editor", role: "editor" });
    const editorPage = await editorContext.newPage();
    await editorPage.goto(`${server.url}/#/agents/email-approval`);
    await signIn(editorPage, editor.key);
    await expect(editorPage.getByTestId("whoami")).toHaveText(/Ed Editor · editor/);
    await expect(editorPage.getByTestId("save-status")).toHaveText(/^Saved · v\d+$/);

    // The admin, in another browser, revokes Ed's key on the Access page.
    await page.goto(`${server.url}/#/agents/support-triage`);
    await signIn(page, TOKEN);
    await page.getByTestId("settings-menu").click();
    await page.getByTestId("open-access").click();
    const row = page.getByTestId("key-item").filter({ hasText: "Ed Editor" });
    await row.getByTestId("key-revoke").click();
    await expect(row).toContainText("revoked");

    // Ed's next request is a 401: the sign-in screen with the reason, never the WADDLE_TOKEN dialog. His
    // socket, cut at the revoke, may meet the 401 first when it reconnects; then the list is already gone.
    const leaving = editorPage
      .getByTestId("agent-item-support-triage")
      .click({ timeout: 10_000 })
      .catch(() => undefined);
    await expect(editorPage.getByTestId("signin-page")).toBeVisible();
    await leaving;
    await expect(editorPage.getByRole("alert")).toContainText(/stopped working.*revoked or has expired/);
    await expect(editorPage.getByTestId("token-dialog")).toHaveCount(0);
    await saveScreenshot(editorPage, "header-fit-key-revoked");

    // A new key signs Ed back in.
    const fresh = await createKey(server.url, { name: "Ed Editor 2", role: "editor" });
    await signIn(editorPage, fresh.key);
    await expect(editorPage.getByTestId("whoami")).toHaveText(/Ed Editor 2 · editor/);
  } finally {
    await editorContext.close();
    await server.stop();
  }
});
