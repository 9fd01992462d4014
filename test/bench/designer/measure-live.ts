import type { Browser, Page } from "@playwright/test";
import { StartRunResponse } from "@waddle/protocol";
import type { WaddleServer } from "@waddle/server";
import type { ChainWalk } from "./chain-walk-model.js";
import { VIEWPORT } from "./launch-chromium.js";
import { IDLE_CLICK } from "./measure-load.js";
import { getProbeScript, type LongFrameRecord } from "./page-probe.js";
import { traceCpu } from "./trace-cpu.js";

/** Shown only once the run's last event (run_finished) is applied: the replay takes over, the answer box names the finish. */
const FINISHED = '[data-testid="replay-scrubber"], [data-testid="run-panel"] .run-finish-reason';

export interface LiveSample {
  /** The model's latency per call (0: the run is one burst). */
  latencyMs: number;
  /** The run's events in all (its last seq). */
  events: number;
  /** Those published after the page had opened the run (all but the first few). */
  streamed: number;
  /** First to last event published by the server's hub. */
  burstMs: number;
  /** The last event published → the last WebSocket message the page received before showing it. */
  lastReceivedMs: number;
  /** WebSocket messages the page received from the gate's opening until it showed the run's end. */
  messages: number;
  /** The last event published → the page's DOM showing it, and → the end of the task that painted it. */
  lastShownMs: number;
  lastPaintedMs: number;
  longTasks: number[];
  /** The most CPU time the main thread spent in one task meanwhile (from a trace). */
  maxTaskCpuMs: number;
  /** Gaps between animation frames from the gate's opening until 1 s after the last event was shown. */
  frameGaps: number[];
  /** Clicks during the stream: how long each waited for the main thread (handler time − receipt). */
  inputDelays: number[];
  /** Event Timing entries ≥ 16 ms during the stream (input → next paint). */
  slowEventMs: number[];
  longFrames: LongFrameRecord[];
}

const epochNow = () => performance.timeOrigin + performance.now();

async function waitForRoom(server: WaddleServer, runId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((server.io.sockets.adapter.rooms.get(`run:${runId}`)?.size ?? 0) === 0) {
    if (Date.now() > deadline)
      throw new Error(`the page did not subscribe to ${runId} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Clicks a blank spot of the header every `everyMs` until `stop()` (each click waits for the page). */
function startClicking(page: Page, everyMs: number): { stop(): Promise<void> } {
  let running = true;
  const loop = (async () => {
    while (running) {
      await page.mouse.click(IDLE_CLICK.x, IDLE_CLICK.y).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/**
 * Starts a run whose model waits at its first call, opens it in a fresh page at its route, and once the
 * page has subscribed and settled lets the model go: the whole run (thousands of events; one burst as fast
 * as the server records them when the model has no latency) streams into the open page, which is clicked
 * every 50 ms meanwhile.
 */
export async function measureLive(
  browser: Browser,
  input: {
    server: WaddleServer;
    agentId: string;
    tools: readonly string[];
    /** The model's latency per call: 0 for one burst. */
    latencyMs: number;
    queueWalk(walk: ChainWalk): void;
  },
): Promise<LiveSample> {
  const { server, agentId } = input;
  let openGate: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  input.queueWalk({
    tools: input.tools,
    answer: "Walked the whole chain.",
    gate,
    latencyMs: input.latencyMs,
  });
  const response = await fetch(`${server.url}/api/runs`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ agentId, query: "Walk the whole chain" }),
  });
  if (!response.ok) throw new Error(`POST /api/runs answered ${response.status}: ${await response.text()}`);
  const { runId } = StartRunResponse.parse(await response.json());
  const published = { count: 0, first: 0, last: 0 };
  const unsubscribe = server.hub.onRunEvent(runId, () => {
    const now = epochNow();
    if (published.count === 0) published.first = now;
    published.count += 1;
    published.last = now;
  });
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    await context.addInitScript({ content: getProbeScript() });
    const page = await context.newPage();
    await page.goto(`${server.url}/#/agents/${agentId}/runs/${runId}`, { waitUntil: "commit" });
    await page.evaluate(
      (selectors) => window.__waddleBench.waitFor(selectors, 30_000),
      [
        `[data-testid="run-summary"][data-run-id="${runId}"]`,
        '[data-testid="run-status"][data-status="running"]',
      ],
    );
    await waitForRoom(server, runId, 10_000);
    // let the page finish opening (fit, first paints, the probe's 3 s watch of the tool nodes) so that
    // only the stream is measured
    await page.waitForFunction(
      () => performance.now() - (window.__waddleBench.toolsVisibleAt ?? Infinity) > 3_100,
      undefined,
      { polling: 100, timeout: 30_000 },
    );
    await page.waitForTimeout(500);
    const traced = await traceCpu(browser, page, async () => {
      const start = await page.evaluate(() => {
        window.__waddleBench.startFrames();
        return performance.now();
      });
      const clicks = startClicking(page, 50);
      openGate();
      const reached = await page.evaluate(
        (selector) => window.__waddleBench.waitFor([selector], 60_000),
        FINISHED,
      );
      await page.waitForTimeout(1_000);
      await clicks.stop();
      return { start, reached };
    });
    const { start: pageStart, reached: shown } = traced.result;
    const probe = await page.evaluate(
      ({ start, shownAt }) => {
        const state = window.__waddleBench;
        const frames = state.stopFrames();
        return {
          messages: state.messages.filter((time) => time <= shownAt).length,
          lastMessageEpoch:
            performance.timeOrigin + Math.max(0, ...state.messages.filter((time) => time <= shownAt)),
          longTasks: state.longTasks.filter((task) => task.start >= start).map((task) => task.duration),
          frameGaps: frames.slice(1).map((time, index) => time - frames[index]!),
          inputDelays: state.inputs
            .filter((entry) => entry.handled >= start)
            .map((entry) => entry.handled - entry.received),
          slowEventMs: state.slowEvents
            .filter((entry) => entry.start >= start)
            .map((entry) => entry.duration),
          longFrames: state.longFrames.filter((frame) => frame.start >= start),
        };
      },
      { start: pageStart, shownAt: shown.at },
    );
    const run = await server.store.getRun(runId);
    if (run?.status !== "finished")
      throw new Error(`the live run ended ${run?.status ?? "missing"}, not finished`);
    return {
      latencyMs: input.latencyMs,
      events: run.lastSeq ?? 0,
      streamed: published.count,
      burstMs: published.last - published.first,
      lastReceivedMs: probe.lastMessageEpoch - published.last,
      lastShownMs: shown.epoch - published.last,
      lastPaintedMs: shown.epoch + (shown.painted - shown.at) - published.last,
      messages: probe.messages,
      longTasks: probe.longTasks,
      maxTaskCpuMs: Math.max(0, ...traced.tasks.map((task) => task.cpuMs)),
      frameGaps: probe.frameGaps,
      inputDelays: probe.inputDelays,
      slowEventMs: probe.slowEventMs,
      longFrames: probe.longFrames,
    };
  } finally {
    unsubscribe();
    await context.close();
  }
}
