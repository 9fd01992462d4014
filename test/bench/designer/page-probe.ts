// What the benchmark installs in the designer's page before its own scripts run: long tasks and long
// animation frames as the browser reports them, animation-frame and WebSocket message timestamps while
// recording, when pointer input is handled, when the first tool nodes show, and waits that time a DOM
// state to the mutation that made it. Times are performance.now() of the page (0 = navigation start)
// unless named `epoch`.

/** A long animation frame (PerformanceLongAnimationFrameTiming) and the scripts that ran longest in it. */
export interface LongFrameRecord {
  start: number;
  duration: number;
  blockingDuration: number;
  renderStart: number;
  styleAndLayoutStart: number;
  scripts: {
    invoker: string;
    sourceURL: string;
    sourceFunctionName: string;
    sourceCharPosition: number;
    duration: number;
    forcedStyleAndLayoutDuration: number;
  }[];
}

/** A DOM state reached: when the mutation that made it was observed, and when the task that painted it ended. */
export interface Reached {
  at: number;
  painted: number;
  epoch: number;
}

export interface PageProbe {
  longTasks: { start: number; duration: number }[];
  longFrames: LongFrameRecord[];
  /** Pointer input: when the browser received it and when the page's handler ran. */
  inputs: { received: number; handled: number }[];
  /** Event Timing entries (≥ 16 ms from input to the next paint). */
  slowEvents: { name: string; start: number; processingStart: number; duration: number }[];
  /** The first frame with a measured tool node in the canvas, and how many there were then. */
  toolsVisibleAt: number | null;
  toolsVisibleCount: number;
  /** The last frame (within 3 s of the first) in which the set of tool nodes shown changed. */
  toolsSettledAt: number | null;
  /** The first pointer input handled once tool nodes were visible. */
  interactiveAt: number | null;
  frames: number[];
  /** When each WebSocket message arrived (socket.io frames: events, statuses), while recording. */
  messages: number[];
  recording: boolean;
  startFrames(): void;
  /** Stops recording and returns the frame timestamps. */
  stopFrames(): number[];
  /**
   * Resolves when every selector matches (checked on each DOM mutation), or rejects after `timeoutMs`. A
   * selector list (`a, b`) matches when any of its selectors does.
   */
  waitFor(selectors: readonly string[], timeoutMs: number): Promise<Reached>;
}

/** The user-timing mark the probe sets when the page became interactive (it shows in a trace). */
export const INTERACTIVE_MARK = "waddle-bench-interactive";

declare global {
  interface Window {
    __waddleBench: PageProbe;
  }
}

/** Runs in the page (serialized by `getProbeScript`): it may use only what it defines itself. */
function installProbe(): void {
  const INTERACTIVE_MARK = "waddle-bench-interactive";
  const probe: PageProbe = {
    longTasks: [],
    longFrames: [],
    inputs: [],
    slowEvents: [],
    toolsVisibleAt: null,
    toolsVisibleCount: 0,
    toolsSettledAt: null,
    interactiveAt: null,
    frames: [],
    messages: [],
    recording: false,
    startFrames() {
      probe.frames = [];
      probe.messages = [];
      probe.recording = true;
      const tick = (time: number) => {
        if (!probe.recording) return;
        probe.frames.push(time);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    },
    stopFrames() {
      probe.recording = false;
      return probe.frames;
    },
    waitFor(selectors, timeoutMs) {
      return new Promise<Reached>((resolve, reject) => {
        const matches = () => selectors.every((selector) => document.querySelector(selector) !== null);
        const settle = () => {
          const at = performance.now();
          const channel = new MessageChannel();
          // a message posted now runs after the current task, which ends with the frame's paint
          channel.port1.onmessage = () =>
            resolve({ at, painted: performance.now(), epoch: performance.timeOrigin + at });
          channel.port2.postMessage(null);
        };
        if (matches()) return settle();
        const observer = new MutationObserver(() => {
          if (!matches()) return;
          observer.disconnect();
          clearTimeout(timer);
          settle();
        });
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${selectors.join(" and ")}`));
        }, timeoutMs);
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      });
    },
  };
  window.__waddleBench = probe;

  // a listener on every socket the page opens, added before the page's own: when messages arrive
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener("message", () => {
        if (probe.recording) probe.messages.push(performance.now());
      });
    }
  };

  const observe = (type: string, onEntry: (entry: PerformanceEntry) => void) => {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(onEntry)).observe({
        type,
        buffered: true,
        ...(type === "event" ? { durationThreshold: 16 } : {}),
      } as PerformanceObserverInit);
    } catch {
      // an entry type this browser does not know: its figures stay empty
    }
  };
  observe("longtask", (entry) => probe.longTasks.push({ start: entry.startTime, duration: entry.duration }));
  observe("long-animation-frame", (raw) => {
    const entry = raw as PerformanceEntry & {
      blockingDuration: number;
      renderStart: number;
      styleAndLayoutStart: number;
      scripts: LongFrameRecord["scripts"];
    };
    if (entry.duration < 50) return;
    probe.longFrames.push({
      start: entry.startTime,
      duration: entry.duration,
      blockingDuration: entry.blockingDuration,
      renderStart: entry.renderStart,
      styleAndLayoutStart: entry.styleAndLayoutStart,
      scripts: [...entry.scripts]
        .sort((left, right) => right.duration - left.duration)
        .slice(0, 3)
        .map((script) => ({
          invoker: script.invoker,
          sourceURL: script.sourceURL,
          sourceFunctionName: script.sourceFunctionName,
          sourceCharPosition: script.sourceCharPosition,
          duration: script.duration,
          forcedStyleAndLayoutDuration: script.forcedStyleAndLayoutDuration,
        })),
    });
  });
  observe("event", (raw) => {
    const entry = raw as PerformanceEventTiming;
    probe.slowEvents.push({
      name: entry.name,
      start: entry.startTime,
      processingStart: entry.processingStart,
      duration: entry.duration,
    });
  });

  window.addEventListener(
    "pointerdown",
    (event) => {
      const handled = performance.now();
      probe.inputs.push({ received: event.timeStamp, handled });
      if (probe.interactiveAt === null && probe.toolsVisibleAt !== null) {
        probe.interactiveAt = handled;
        performance.mark(INTERACTIVE_MARK);
      }
    },
    { capture: true },
  );

  // tool nodes count as shown once React Flow has measured them (it hides them until then) and they
  // lie in the canvas; the set is watched for 3 s after the first to tell when the view settled
  let lastKey = "";
  const watchTools = (time: number) => {
    const canvas = document.querySelector(".react-flow")?.getBoundingClientRect();
    const shown: string[] = [];
    if (canvas) {
      for (const node of document.querySelectorAll<HTMLElement>(".react-flow__node-tool")) {
        if (node.style.visibility === "hidden") continue;
        const box = node.getBoundingClientRect();
        const inside =
          box.width > 0 &&
          box.right > canvas.left &&
          box.left < canvas.right &&
          box.bottom > canvas.top &&
          box.top < canvas.bottom;
        if (inside) shown.push(`${node.dataset.id}@${Math.round(box.left)},${Math.round(box.top)}`);
      }
    }
    if (shown.length > 0 && probe.toolsVisibleAt === null) {
      probe.toolsVisibleAt = time;
      probe.toolsVisibleCount = shown.length;
    }
    const key = shown.join(" ");
    if (probe.toolsVisibleAt !== null && key !== lastKey) probe.toolsSettledAt = time;
    lastKey = key;
    if (probe.toolsVisibleAt === null || time - probe.toolsVisibleAt < 3_000)
      requestAnimationFrame(watchTools);
  };
  requestAnimationFrame(watchTools);
}

/**
 * The probe as an init script. tsx compiles this file with esbuild's keepNames, which wraps named
 * functions in a `__name(…)` helper that the page lacks: the script defines a no-op one first (functions
 * passed to page.evaluate from tsx-compiled files find it too).
 */
export function getProbeScript(): string {
  return `globalThis.__name ??= (target) => target;\n(${installProbe.toString()})();`;
}
