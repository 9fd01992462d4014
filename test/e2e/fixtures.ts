import { test as base } from "@playwright/test";

/**
 * `test` with `baseURL` pointing at the server that global setup started, and a check after every test
 * that the page threw no uncaught error and that no page resource (outside /api, whose 4xx answers some
 * specs provoke on purpose) failed to load: a missing favicon or asset fails the spec that met it.
 */
const PAGE_RESOURCES = new Set(["document", "stylesheet", "script", "image", "font"]);

export const test = base.extend<{ pageHealth: undefined }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures must destructure their dependencies
  baseURL: async ({}, use) => {
    const url = process.env.WADDLE_E2E_URL;
    if (!url) throw new Error("WADDLE_E2E_URL is not set: run the specs through playwright.config.ts");
    await use(url);
  },
  pageHealth: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(`uncaught error: ${error.message}`));
      page.on("response", (response) => {
        const { pathname } = new URL(response.url());
        if (response.status() >= 400 && !pathname.startsWith("/api/"))
          problems.push(`${response.status()} for ${pathname}`);
      });
      page.on("requestfailed", (request) => {
        const { pathname } = new URL(request.url());
        const error = request.failure()?.errorText ?? "failed";
        // A navigation cancels fetches in flight (ERR_ABORTED): not a fault. A page resource that Chromium
        // aborts is one (a stylesheet or script answered with the wrong type, e.g. a 404 page).
        const isResource = PAGE_RESOURCES.has(request.resourceType());
        if (!pathname.startsWith("/api/") && (isResource || error !== "net::ERR_ABORTED"))
          problems.push(`request failed: ${pathname} (${error})`);
      });
      await use(undefined);
      if (problems.length > 0) throw new Error(`The page had problems:\n${problems.join("\n")}`);
    },
    { auto: true },
  ],
});

export { expect } from "@playwright/test";
