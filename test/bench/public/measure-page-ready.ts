import type { Browser, BrowserContextOptions } from "@playwright/test";

/** A DOM state that says the page is ready: every selector matches an element (with `text`, that text). */
export interface ReadyCondition {
  selector: string;
  text?: string;
  /** The element must not be disabled (a form control the visitor types into). */
  enabled?: boolean;
}

/** A phone (390×844 CSS px at 3×, touch) and a desktop window as the e2e specs use. */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
};
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 } };

export interface ReadySample {
  /** Navigation start → the mutation that made every condition true. */
  readyMs: number;
  firstContentfulPaintMs: number | null;
  /** Long tasks (≥ 50 ms) that started before ready, summed. */
  longTasksMs: number;
  /** Script bytes the page fetched by then (encoded body: what came over the wire). */
  scriptBytes: number;
  /** A fixed loop timed in the page after ready: the throttling's check (4× must take about 4 times as long). */
  loopMs: number;
}

/**
 * Runs in the page before its own scripts (serialized: it may use only what it defines itself): times the
 * first DOM state where `conditions` all hold.
 */
function installReadyProbe(conditions: readonly ReadyCondition[]): void {
  const probe = { readyAt: null as number | null, longTasks: [] as { start: number; duration: number }[] };
  (window as unknown as { __readyProbe: typeof probe }).__readyProbe = probe;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      probe.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: "longtask", buffered: true });
  const holds = () =>
    conditions.every((condition) => {
      const element = document.querySelector(condition.selector);
      if (!element) return false;
      if (condition.text !== undefined && element.textContent?.trim() !== condition.text) return false;
      return !condition.enabled || !(element as HTMLInputElement).disabled;
    });
  const observer = new MutationObserver(() => {
    if (probe.readyAt !== null || !holds()) return;
    probe.readyAt = performance.now();
    performance.mark("bench-ready");
    observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
}

/**
 * Loads `url` in a fresh browser context (nothing cached; the HTTP cache also turned off over CDP), with
 * the CPU slowed `cpuSlowdown` times (CDP `Emulation.setCPUThrottlingRate`), and times it to the state
 * `conditions` describe.
 */
export async function measurePageReady(options: {
  browser: Browser;
  url: string;
  context: BrowserContextOptions;
  conditions: readonly ReadyCondition[];
  cpuSlowdown: number;
  timeoutMs?: number;
}): Promise<ReadySample> {
  const context = await options.browser.newContext(options.context);
  try {
    // tsx's esbuild names functions with a `__name` helper that the page does not have
    await context.addInitScript({
      content: `globalThis.__name ??= (target) => target;\n(${installReadyProbe.toString()})(${JSON.stringify(options.conditions)});`,
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: options.cpuSlowdown });
    await page.goto(options.url, { waitUntil: "commit" });
    await page.waitForFunction(
      () => (window as unknown as { __readyProbe: { readyAt: number | null } }).__readyProbe.readyAt !== null,
      undefined,
      { timeout: options.timeoutMs ?? 30_000, polling: 50 },
    );
    return await page.evaluate(() => {
      const probe = (
        window as unknown as {
          __readyProbe: { readyAt: number; longTasks: { start: number; duration: number }[] };
        }
      ).__readyProbe;
      const fcp = performance.getEntriesByName("first-contentful-paint")[0];
      const scripts = performance
        .getEntriesByType("resource")
        .filter((entry) => /\.m?js$/.test(new URL(entry.name).pathname) && entry.startTime < probe.readyAt);
      const loopStart = performance.now();
      let sink = 0;
      for (let index = 0; index < 2_000_000; index += 1) sink = (sink + index * 7) % 1_000_003;
      const loopMs = performance.now() - loopStart + (sink < 0 ? 1 : 0);
      return {
        readyMs: probe.readyAt,
        firstContentfulPaintMs: fcp ? fcp.startTime : null,
        longTasksMs: probe.longTasks
          .filter((task) => task.start < probe.readyAt)
          .reduce((total, task) => total + task.duration, 0),
        scriptBytes: scripts.reduce(
          (total, entry) => total + (entry as PerformanceResourceTiming).encodedBodySize,
          0,
        ),
        loopMs,
      };
    });
  } finally {
    await context.close();
  }
}
