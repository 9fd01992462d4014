import type { Browser } from "@playwright/test";
import { VIEWPORT } from "./launch-chromium.js";

/** The user-timing name the designer gives each validation (designer/src/graph/get-validation.ts). */
const VALIDATION_MEASURE = "waddle-validation";

export interface ValidationSample {
  /** Each validation that followed one edit of the description (ms, in the page). */
  validationsMs: number[];
  /** Keystrokes that took 16 ms or more to paint: key press → the page's handler ran (input delay, ms). */
  inputDelaysMs: number[];
}

/**
 * Opens the agent, selects a tool and types `edits` characters into its description, one at a time: each
 * keystroke is one edit of the spec, validated again in the page (every check on). Reads the designer's
 * validation measures, and each keystroke's input delay from Event Timing (typing must never wait for a
 * validation: it runs on a deferred value, after the keystroke is painted).
 */
export async function measureValidation(
  browser: Browser,
  options: { url: string; tool: string; edits: number },
): Promise<ValidationSample> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.goto(options.url);
    const node = page.getByTestId(`tool-node-${options.tool}`);
    await node.waitFor({ state: "visible", timeout: 30_000 });
    await node.click({ position: { x: 60, y: 14 } });
    const description = page.getByTestId("tool-desc-input");
    await description.waitFor({ state: "visible" });
    await description.click();
    await page.evaluate(() => {
      const delays: number[] = [];
      (window as unknown as { __keyDelays: number[] }).__keyDelays = delays;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as PerformanceEventTiming[]) {
          if (entry.name === "keydown") delays.push(entry.processingStart - entry.startTime);
        }
      }).observe({ type: "event", buffered: false, durationThreshold: 16 } as PerformanceObserverInit);
      performance.clearMeasures("waddle-validation");
    });
    for (let index = 0; index < options.edits; index += 1) {
      const before = await page.evaluate(
        (name) => performance.getEntriesByName(name, "measure").length,
        VALIDATION_MEASURE,
      );
      await page.keyboard.type(String.fromCharCode(97 + (index % 26)));
      await page.waitForFunction(
        ({ name, count }) => performance.getEntriesByName(name, "measure").length > count,
        { name: VALIDATION_MEASURE, count: before },
        { polling: "raf", timeout: 10_000 },
      );
    }
    return await page.evaluate((name) => {
      const window_ = window as unknown as { __keyDelays: number[] };
      return {
        validationsMs: performance.getEntriesByName(name, "measure").map((entry) => entry.duration),
        inputDelaysMs: window_.__keyDelays,
      };
    }, VALIDATION_MEASURE);
  } finally {
    await context.close();
  }
}
