import { chromium, type Browser } from "@playwright/test";

/** Debian's Chromium: the benchmark never downloads a browser. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Headless Chromium as the e2e specs run it (playwright.config.ts), at the same window size. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
}

export const VIEWPORT = { width: 1440, height: 900 } as const;
