import { describe, expect, it } from "vitest";
import type { LiveSample } from "./measure-live.js";
import type { LoadSample } from "./measure-load.js";
import { describeLongFrame, summarizeDesignerBench } from "./summarize-designer-bench.js";

const load = (interactiveMs: number): LoadSample => ({
  toolsVisibleMs: interactiveMs - 50,
  toolsVisibleCount: 18,
  interactiveMs,
  settledMs: interactiveMs - 50,
  renderedTools: 18,
  firstContentfulPaintMs: 400,
  longestTaskMs: 120,
  maxTaskCpuMs: 80,
  blockingMs: 150,
});

const live: LiveSample = {
  latencyMs: 0,
  events: 3_010,
  streamed: 3_000,
  burstMs: 600,
  lastReceivedMs: 100,
  messages: 3_000,
  lastShownMs: 300,
  lastPaintedMs: 320,
  longTasks: [60, 120],
  maxTaskCpuMs: 70,
  frameGaps: [16, 17, 16, 90],
  inputDelays: [2, 30],
  slowEventMs: [],
  longFrames: [],
};

describe("summarizeDesignerBench", () => {
  it("judges load and replay on medians and the live run on its longest task", () => {
    const result = summarizeDesignerBench({
      loads: [load(1_000), load(1_400), load(2_000)],
      lives: [live],
      replays: [
        {
          openMs: 900,
          eventsFetchedMs: 300,
          eventsKb: 4_000,
          longestTaskMs: 80,
          maxTaskCpuMs: 50,
          jumps: [{ position: 5, tool: "tool_3", shownMs: 20, paintedMs: 40, cpuMs: 12 }],
        },
        {
          openMs: 1_200,
          eventsFetchedMs: 300,
          eventsKb: 4_000,
          longestTaskMs: 80,
          maxTaskCpuMs: 50,
          jumps: [{ position: 9, tool: "tool_4", shownMs: 30, paintedMs: 60, cpuMs: 15 }],
        },
      ],
      shape: { tools: 300, edges: 600, replayEvents: 10_000 },
      browser: "Chromium",
      designer: "a build",
    });
    expect(result.targets.map((target) => target.met)).toEqual([true, false, false, true]);
    expect(result.targets[1]?.measured).toBe(
      "max 120 ms (2 long tasks in 1 runs); the most CPU in one task: 70 ms",
    );
    expect(result.tables).toHaveLength(3);
    expect(result.tables[1]?.rows[0]).toEqual([
      1,
      "none: one burst",
      3010,
      600,
      5000,
      100,
      300,
      320,
      2,
      120,
      70,
      87.8,
      90,
      30,
    ]);
    expect(result.lines).toContain("designer-interactive-ms: 1400");
  });
});

describe("describeLongFrame", () => {
  it("names the longest script and the rendering after the scripts", () => {
    const text = describeLongFrame({
      start: 100,
      duration: 120,
      blockingDuration: 70,
      renderStart: 190,
      styleAndLayoutStart: 200,
      scripts: [
        {
          invoker: "FrameRequestCallback",
          sourceURL: "http://127.0.0.1:1234/assets/index.js",
          sourceFunctionName: "flush",
          sourceCharPosition: 42,
          duration: 80,
          forcedStyleAndLayoutDuration: 0,
        },
      ],
    });
    expect(text).toBe(
      "120 ms (blocking 70 ms); longest script: FrameRequestCallback in flush (/assets/index.js:42) 80 ms; style, layout and paint 20 ms",
    );
    expect(describeLongFrame(undefined)).toBeNull();
  });
});
