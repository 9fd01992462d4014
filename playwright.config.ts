import { defineConfig } from "@playwright/test";

/**
 * One e2e stack: `test/e2e/global-setup.ts` starts the real, built server on a free port (offline model,
 * a fresh data directory) and the specs drive Debian's Chromium against it. Browsers are never downloaded.
 */
export default defineConfig({
  testDir: "test/e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results",
  globalSetup: "./test/e2e/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    headless: true,
    viewport: { width: 1440, height: 900 },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
});
