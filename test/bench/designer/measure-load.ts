import type { Browser, Page } from "@playwright/test";
import { VIEWPORT } from "./launch-chromium.js";
import { getProbeScript, INTERACTIVE_MARK } from "./page-probe.js";
import { getMaxCpuBetween, traceCpu } from "./trace-cpu.js";

/** A blank spot of the app header (the title block, right of the agent's name): a click there does nothing. */
export const IDLE_CLICK = { x: 640, y: 24 } as const;

export interface LoadSample {
  /** Navigation start → the first frame with tool nodes measured and in the canvas. */
  toolsVisibleMs: number;
  toolsVisibleCount: number;
  /** Navigation start → the first click handled once tool nodes were visible. */
  interactiveMs: number;
  /** Navigation start → the last change to the tool nodes shown (within 3 s). */
  settledMs: number;
  /** Tool nodes rendered (React Flow renders only those in view for large agents). */
  renderedTools: number;
  firstContentfulPaintMs: number | null;
  longestTaskMs: number;
  /** The most CPU time the main thread spent in one task before interactive (from a trace). */
  maxTaskCpuMs: number;
  /** Sum of the part of each long task over 50 ms, until interactive (Lighthouse's TBT). */
  blockingMs: number;
}

/**
 * Clicks a blank spot of the header again and again from the moment the navigation commits: each click
 * is handled as soon as the page's main thread is free, so the first one handled after tool nodes show is
 * when the page became interactive (to within one click's round trip, a few ms).
 */
async function probeUntilInteractive(page: Page, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await page.mouse.click(IDLE_CLICK.x, IDLE_CLICK.y);
    if (await page.evaluate(() => window.__waddleBench.interactiveAt !== null)) return;
  }
  throw new Error(`the designer was not interactive within ${timeoutMs} ms`);
}

/** Opens `url` in a fresh browser context (cold HTTP cache) and times it to interactive. */
export async function measureLoad(browser: Browser, url: string): Promise<LoadSample> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    await context.addInitScript({ content: getProbeScript() });
    const page = await context.newPage();
    const { tasks, marks } = await traceCpu(browser, page, async () => {
      await page.goto(url, { waitUntil: "commit" });
      await probeUntilInteractive(page, 30_000);
    });
    const interactiveTs = marks.get(INTERACTIVE_MARK) ?? Infinity;
    const maxTaskCpuMs = getMaxCpuBetween(tasks, 0, interactiveTs);
    // the tool watch runs 3 s past the first nodes: wait for it, so that `settled` is final
    await page.waitForFunction(
      () => performance.now() - (window.__waddleBench.toolsVisibleAt ?? Infinity) > 3_100,
      undefined,
      { polling: 100 },
    );
    const sample = await page.evaluate(() => {
      const probe = window.__waddleBench;
      const interactive = probe.interactiveAt ?? NaN;
      const early = probe.longTasks.filter((task) => task.start < interactive);
      const fcp = performance.getEntriesByName("first-contentful-paint")[0];
      return {
        toolsVisibleMs: probe.toolsVisibleAt ?? NaN,
        toolsVisibleCount: probe.toolsVisibleCount,
        interactiveMs: interactive,
        settledMs: probe.toolsSettledAt ?? NaN,
        renderedTools: document.querySelectorAll(".react-flow__node-tool").length,
        firstContentfulPaintMs: fcp ? fcp.startTime : null,
        longestTaskMs: Math.max(0, ...early.map((task) => task.duration)),
        blockingMs: early.reduce((total, task) => total + Math.max(0, task.duration - 50), 0),
      };
    });
    return { ...sample, maxTaskCpuMs };
  } finally {
    await context.close();
  }
}
