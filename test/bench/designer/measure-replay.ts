import type { Browser, Page } from "@playwright/test";
import type { RunEvent } from "@waddle/protocol";
import type { WaddleStore } from "@waddle/server";
import { VIEWPORT } from "./launch-chromium.js";
import { getFinishedResult, makeReplayEvents } from "./make-replay-events.js";
import { getProbeScript } from "./page-probe.js";
import { planReplayJumps } from "./plan-replay-jumps.js";
import { getCpuBetween, getMaxCpuBetween, traceCpu } from "./trace-cpu.js";

export interface StoredReplay {
  runId: string;
  events: RunEvent[];
}

/**
 * Writes a finished run of `events` events into the server's store, as the run recorder would have: the
 * run, its events in one transaction, then its outcome.
 */
export async function storeReplayRun(
  store: WaddleStore,
  input: {
    agentId: string;
    agentVersion: number;
    tools: readonly string[];
    groups: readonly { id: string; members: readonly string[] }[];
    events: number;
  },
): Promise<StoredReplay> {
  const runId = `run_replay_${input.events}`;
  const startTs = Date.now() - 3_600_000;
  const events = makeReplayEvents({ runId, ...input, startTs });
  await store.createRun({
    id: runId,
    agentId: input.agentId,
    agentVersion: input.agentVersion,
    query: "Walk the whole chain",
    status: "running",
  });
  await store.appendEvents(events.map((event) => ({ event })));
  const finished = getFinishedResult(events);
  await store.updateRun(runId, {
    status: "finished",
    result: { kind: "finish", ...finished },
    usage: finished.metadata.usage,
    startedAt: new Date(events[0]!.ts).toISOString(),
    finishedAt: new Date(events.at(-1)!.ts).toISOString(),
  });
  return { runId, events };
}

export interface ReplayJumpSample {
  position: number;
  tool: string;
  /** The input event → the node's new state in the DOM, and → the end of the task that painted it. */
  shownMs: number;
  paintedMs: number;
  /** The main thread's CPU time in the tasks that ran meanwhile (from a trace). */
  cpuMs: number;
}

export interface ReplayOpenSample {
  /** The route changed → the scrubber and the canvas show the run's end (the task that painted it ended). */
  openMs: number;
  longestTaskMs: number;
  /** The route changed → the run's events (GET /api/runs/:id/events) fully received. */
  eventsFetchedMs: number;
  /** Their JSON, decoded. */
  eventsKb: number;
  /** The most CPU time the main thread spent in one task while opening (from a trace). */
  maxTaskCpuMs: number;
  jumps: ReplayJumpSample[];
}

/** The tool nodes on screen now (rendered, measured, inside the canvas). */
function getShownTools(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const canvas = document.querySelector(".react-flow")?.getBoundingClientRect();
    if (!canvas) return [];
    return [...document.querySelectorAll<HTMLElement>(".react-flow__node-tool")]
      .filter((node) => {
        const box = node.getBoundingClientRect();
        return (
          node.style.visibility !== "hidden" &&
          box.top >= canvas.top &&
          box.bottom <= canvas.bottom &&
          box.left >= canvas.left &&
          box.right <= canvas.right
        );
      })
      .map((node) => node.dataset.id ?? "");
  });
}

/**
 * Opens the agent in a fresh context, waits until it is quiet, then switches the route to the run (as
 * a click in the run history does) and times the replay's opening; then jumps the scrubber to far
 * positions, each timed from the input event until the canvas shows the node that runs there.
 */
export async function measureReplay(
  browser: Browser,
  input: { url: string; agentId: string; replay: StoredReplay; jumps: boolean },
): Promise<ReplayOpenSample> {
  const { url, agentId } = input;
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    await context.addInitScript({ content: getProbeScript() });
    const page = await context.newPage();
    await page.goto(`${url}/#/agents/${agentId}`, { waitUntil: "commit" });
    await page.waitForFunction(() => window.__waddleBench.toolsVisibleAt !== null, undefined, {
      timeout: 30_000,
    });
    await page.waitForTimeout(1_000);
    const traced = await traceCpu(browser, page, () => measureOpenAndJumps(page, input));
    const { tasks, marks } = traced;
    const between = (name: string) =>
      [marks.get(`${name}-start`) ?? NaN, marks.get(`${name}-end`) ?? NaN] as const;
    const [openFrom, openTo] = between("open");
    return {
      ...traced.result.opened,
      maxTaskCpuMs: getMaxCpuBetween(tasks, openFrom, openTo),
      jumps: traced.result.jumps.map((jump, index) => ({
        ...jump,
        cpuMs: getCpuBetween(tasks, ...between(`jump-${index}`)),
      })),
    };
  } finally {
    await context.close();
  }
}

/** The route change to the run, then the jumps, each between user-timing marks that the trace keeps. */
async function measureOpenAndJumps(
  page: Page,
  input: { agentId: string; replay: StoredReplay; jumps: boolean },
): Promise<{
  opened: Omit<ReplayOpenSample, "jumps" | "maxTaskCpuMs">;
  jumps: Omit<ReplayJumpSample, "cpuMs">[];
}> {
  const { agentId, replay } = input;
  const opened = await page.evaluate(
    async ({ hash, length }) => {
      performance.mark("open-start");
      const start = performance.now();
      window.location.hash = hash;
      const reached = await window.__waddleBench.waitFor(
        [
          `input[data-testid="replay-scrubber"][max="${length}"]`,
          `[data-testid^="tool-node-"][data-run-state="succeeded"]`,
        ],
        30_000,
      );
      performance.mark("open-end");
      // long-task entries reach the observer a little after their task: give them time to arrive
      await new Promise((resolve) => setTimeout(resolve, 300));
      const tasks = window.__waddleBench.longTasks.filter(
        (task) => task.start >= start && task.start <= reached.painted,
      );
      const events = performance
        .getEntriesByType("resource")
        .find((entry) => entry.name.includes("/events?") && entry.startTime >= start) as
        PerformanceResourceTiming | undefined;
      return {
        openMs: reached.painted - start,
        longestTaskMs: Math.max(0, ...tasks.map((task) => task.duration)),
        eventsFetchedMs: events ? events.responseEnd - start : NaN,
        eventsKb: events ? events.decodedBodySize / 1024 : NaN,
      };
    },
    { hash: `#/agents/${agentId}/runs/${replay.runId}`, length: replay.events.length },
  );
  const jumps: Omit<ReplayJumpSample, "cpuMs">[] = [];
  if (input.jumps) {
    await page.waitForTimeout(500);
    const plan = planReplayJumps({ events: replay.events, tools: await getShownTools(page) });
    for (const [index, jump] of plan.entries()) {
      const timed = await page.evaluate(
        async ({ position, selector, mark }) => {
          const scrubber = document.querySelector<HTMLInputElement>('input[data-testid="replay-scrubber"]');
          const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
          if (!scrubber || !setValue) throw new Error("no replay scrubber");
          performance.mark(`${mark}-start`);
          const start = performance.now();
          // what a drag does: the value changes and React's onChange sees an input event
          setValue.call(scrubber, String(position));
          scrubber.dispatchEvent(new Event("input", { bubbles: true }));
          const reached = await window.__waddleBench.waitFor([selector], 10_000);
          performance.mark(`${mark}-end`);
          return { shownMs: reached.at - start, paintedMs: reached.painted - start };
        },
        {
          position: jump.position,
          selector: `[data-testid="tool-node-${jump.tool}"][data-run-state="running"]`,
          mark: `jump-${index}`,
        },
      );
      jumps.push({ ...jump, ...timed });
      await page.waitForTimeout(150);
    }
  }
  return { opened, jumps };
}
