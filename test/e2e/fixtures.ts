import { test as base } from "@playwright/test";

/** `test` with `baseURL` pointing at the server that global setup started. */
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures must destructure their dependencies
  baseURL: async ({}, use) => {
    const url = process.env.WADDLE_E2E_URL;
    if (!url) throw new Error("WADDLE_E2E_URL is not set: run the specs through playwright.config.ts");
    await use(url);
  },
});

export { expect } from "@playwright/test";
