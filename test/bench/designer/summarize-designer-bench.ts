import type { BenchResult, BenchTable, TargetCheck } from "../bench-report.js";
import { round } from "../format-report.js";
import { getSummary } from "../stats.js";
import type { LiveSample } from "./measure-live.js";
import type { LoadSample } from "./measure-load.js";
import type { ReplayOpenSample } from "./measure-replay.js";
import type { LongFrameRecord } from "./page-probe.js";

export const TARGETS = { interactiveMs: 1_500, longTaskMs: 100, replayOpenMs: 1_000, jumpMs: 50 } as const;

export interface DesignerBenchInput {
  loads: readonly LoadSample[];
  lives: readonly LiveSample[];
  replays: readonly ReplayOpenSample[];
  shape: { tools: number; edges: number; replayEvents: number };
  /** The browser, as the report names it. */
  browser: string;
  /** Which designer build was served. */
  designer: string;
}

const ms = (value: number) => round(value, 0);

/** median / p90 / min / max of one figure, as a table row. */
function getRow(label: string, values: readonly number[]): (string | number)[] {
  const summary = getSummary(values);
  return [label, ms(summary.median), ms(summary.p90), ms(summary.min), ms(summary.max), summary.n];
}

const SUMMARY_COLUMNS = ["figure", "median ms", "p90 ms", "min ms", "max ms", "n"] as const;

/** The worst long animation frame, with the script that ran longest in it, in one line. */
export function describeLongFrame(frame: LongFrameRecord | undefined): string | null {
  if (frame === undefined) return null;
  const script = frame.scripts[0];
  const where = script
    ? `${script.invoker || "script"}${script.sourceFunctionName ? ` in ${script.sourceFunctionName}` : ""} ` +
      `(${shortUrl(script.sourceURL)}:${script.sourceCharPosition}) ${ms(script.duration)} ms`
    : "none attributed";
  const rendering =
    frame.styleAndLayoutStart > 0 ? frame.start + frame.duration - frame.styleAndLayoutStart : 0;
  return (
    `${ms(frame.duration)} ms (blocking ${ms(frame.blockingDuration)} ms); longest script: ${where}; ` +
    `style, layout and paint ${ms(rendering)} ms`
  );
}

function shortUrl(url: string): string {
  return url.replace(/^https?:\/\/[^/]+/, "");
}

/** Tables, key lines, targets and notes of the designer benchmark. */
export function summarizeDesignerBench(input: DesignerBenchInput): BenchResult {
  const { loads, lives, replays, shape } = input;
  const interactive = getSummary(loads.map((load) => load.interactiveMs));
  const loadTable: BenchTable = {
    title: `${shape.tools}-tool, ${shape.edges}-edge agent opened at #/agents/<id>, navigation start → …, cold cache, ${loads.length} loads (${input.browser})`,
    columns: SUMMARY_COLUMNS,
    rows: [
      getRow(
        "first contentful paint",
        loads.map((load) => load.firstContentfulPaintMs ?? NaN).filter(Number.isFinite),
      ),
      getRow(
        "tool nodes shown",
        loads.map((load) => load.toolsVisibleMs),
      ),
      getRow(
        "interactive: first click handled after that",
        loads.map((load) => load.interactiveMs),
      ),
      getRow(
        "longest task before interactive",
        loads.map((load) => load.longestTaskMs),
      ),
      getRow(
        "most main-thread CPU time in one task before interactive",
        loads.map((load) => load.maxTaskCpuMs),
      ),
      getRow(
        "total blocking time before interactive",
        loads.map((load) => load.blockingMs),
      ),
    ],
  };

  const allLongTasks = lives.flatMap((live) => live.longTasks);
  const maxLongTask = Math.max(0, ...allLongTasks);
  const maxTaskCpu = Math.max(0, ...lives.map((live) => live.maxTaskCpuMs));
  const liveTable: BenchTable = {
    title:
      "a live run of that agent streamed into the page open at its route (#/agents/<id>/runs/<runId>), a click every 50 ms meanwhile",
    columns: [
      "run",
      "model latency",
      "events",
      "server burst ms",
      "events/s",
      "last event sent → received ms",
      "→ shown ms",
      "→ painted ms",
      "long tasks",
      "max long task ms",
      "max CPU in a task ms",
      "p99 frame gap ms",
      "max frame gap ms",
      "max click delay ms",
    ],
    rows: lives.map((live, index) => {
      const gaps = live.frameGaps.length > 0 ? getSummary(live.frameGaps) : null;
      return [
        index + 1,
        live.latencyMs === 0 ? "none: one burst" : `${live.latencyMs} ms a call`,
        live.events,
        ms(live.burstMs),
        ms(live.streamed / (live.burstMs / 1000)),
        ms(live.lastReceivedMs),
        ms(live.lastShownMs),
        ms(live.lastPaintedMs),
        live.longTasks.length,
        ms(Math.max(0, ...live.longTasks)),
        ms(live.maxTaskCpuMs),
        gaps ? round(gaps.p99, 1) : "none",
        gaps ? round(gaps.max, 1) : "none",
        ms(Math.max(0, ...live.inputDelays)),
      ];
    }),
  };

  const jumps = replays.flatMap((replay) => replay.jumps);
  const open = getSummary(replays.map((replay) => replay.openMs));
  const jumpPainted = jumps.length > 0 ? getSummary(jumps.map((jump) => jump.paintedMs)) : null;
  const replayTable: BenchTable = {
    title: `replay of a finished ${shape.replayEvents.toLocaleString("en-US")}-event run of that agent (${replays.length} fresh pages, ${jumps.length} scrubber jumps)`,
    columns: SUMMARY_COLUMNS,
    rows: [
      getRow(
        "open: route → scrubber and canvas at the run's end, painted",
        replays.map((replay) => replay.openMs),
      ),
      getRow(
        `· the events' fetch until received (${ms(replays[0]?.eventsKb ?? NaN)} kB of JSON)`,
        replays.map((replay) => replay.eventsFetchedMs),
      ),
      getRow(
        "longest task while opening",
        replays.map((replay) => replay.longestTaskMs),
      ),
      getRow(
        "most main-thread CPU time in one task while opening",
        replays.map((replay) => replay.maxTaskCpuMs),
      ),
      ...(jumps.length > 0
        ? [
            getRow(
              "scrubber jump → canvas node state in the DOM",
              jumps.map((jump) => jump.shownMs),
            ),
            getRow(
              "scrubber jump → painted",
              jumps.map((jump) => jump.paintedMs),
            ),
            getRow(
              "· main-thread CPU time meanwhile (sum)",
              jumps.map((jump) => jump.cpuMs),
            ),
          ]
        : []),
    ],
  };

  const worstLive = [...lives.flatMap((live) => live.longFrames)].sort(
    (left, right) => right.duration - left.duration,
  )[0];
  const targets: TargetCheck[] = [
    {
      target: `${shape.tools}-tool, ${shape.edges}-edge agent interactive ≤ ${TARGETS.interactiveMs} ms (median)`,
      measured: `${ms(interactive.median)} ms (max ${ms(interactive.max)})`,
      met: interactive.median <= TARGETS.interactiveMs,
    },
    {
      target: `every long task < ${TARGETS.longTaskMs} ms while ${lives[0]?.events ?? 0} live events apply`,
      measured:
        `max ${ms(maxLongTask)} ms (${allLongTasks.length} long tasks in ${lives.length} runs)` +
        `; the most CPU in one task: ${ms(maxTaskCpu)} ms`,
      met: maxLongTask < TARGETS.longTaskMs,
    },
    {
      target: `replay of ${shape.replayEvents.toLocaleString("en-US")} events opens ≤ ${TARGETS.replayOpenMs} ms (median)`,
      measured: `${ms(open.median)} ms (max ${ms(open.max)})`,
      met: open.median <= TARGETS.replayOpenMs,
    },
    {
      target: `scrubber jump ≤ ${TARGETS.jumpMs} ms to painted (median)`,
      measured: jumpPainted
        ? `${ms(jumpPainted.median)} ms (p90 ${ms(jumpPainted.p90)}, max ${ms(jumpPainted.max)})`
        : "no jump measured",
      met: jumpPainted !== null && jumpPainted.median <= TARGETS.jumpMs,
    },
  ];

  const notes = [
    `${input.browser}, driven by Playwright over CDP; the server is createWaddleServer from the built packages in the benchmark's process (port 0, a temporary SQLite data dir) serving ${input.designer}. The agent (${shape.tools} mock tools, ${shape.edges} edges, 20 parallel groups) is created with POST /api/agents; React Flow renders only the tools in view.`,
    "Load: every load is a new browser context (cold HTTP cache), after one warm-up load not counted. `tool nodes shown` is the first animation frame with a measured tool node inside the canvas; from the moment the navigation commits, a blank spot of the header is clicked again and again (each click waits for the page), and `interactive` is when the first click once nodes were shown was handled (to within a click's round trip, a few ms). Long tasks are the page's PerformanceObserver `longtask` entries.",
    "Live: the run's model (in the server process) walks all the tools, one call each, and then answers; with no latency the run's events come as one burst as fast as the server records them (the server's event loop is then so busy that its socket writes go out in clumps: most of `sent → received`), with 10 ms a call at about 900 events a second. The page opened the run at its route first and subscribed, and the model waited for that. `last event sent → received` is from the hub publishing run_finished to the last WebSocket message the page received before showing it (a listener the probe adds to every socket), `→ shown` to the DOM showing it (the replay scrubber appears when the run's end is applied), on one clock (performance.timeOrigin + now in both processes); `painted` adds the end of the task that painted it. Frame gaps are requestAnimationFrame deltas from the burst's start until 1 s after the end; click delay is a pointerdown handler's time minus the event's timestamp.",
    "Replay: the run's events are generated (schema-valid, seq 1…n: tool steps over every tool, a parallel fan-out every twelfth step, retries, failures, a streamed answer) and written through the server's store before any page opens it. Each sample opens the agent in a fresh page, waits 1 s, then sets the route to the run as the history does; `open` ends when the scrubber (max = the event count) and a tool node in state succeeded are in the DOM and that task ended. A jump sets the scrubber's value and fires its input event, as a drag does, to a far position just after a tool on screen started (so its node must turn `running`), and ends when that node shows it; the next frame's paint is included in `painted`.",
  ];
  notes.push(
    "CPU times come from a Chrome trace recorded meanwhile (category toplevel: every main-thread task with its wall duration and its thread CPU time). On this shared 2-core machine a task can last far longer than the work in it while the page's thread waits for a core: the CPU figures are what the page itself spent, the wall figures what a person would have seen.",
  );
  if (lives.length > 0)
    notes.push(
      `WebSocket messages the page received in each live run until it showed the run's end (the events come one a message, or in \`run_events\` batches): ${lives.map((live) => `${live.messages} for ${live.events} events`).join(", ")}.`,
    );
  const worst = describeLongFrame(worstLive);
  if (worst)
    notes.push(`Longest animation frame during the live runs (long-animation-frame entry): ${worst}.`);
  return {
    tables: [loadTable, liveTable, replayTable],
    lines: [
      `designer-interactive-ms: ${ms(interactive.median)}`,
      `live-max-long-task-ms: ${ms(maxLongTask)}`,
      `replay-open-ms: ${ms(open.median)}`,
      `scrubber-jump-ms: ${jumpPainted ? ms(jumpPainted.median) : "n/a"}`,
    ],
    targets,
    notes,
  };
}
