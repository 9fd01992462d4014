import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { ReactPlanner } from "@waddle/planner";
import { CreateAgentResponse } from "@waddle/protocol";
import { createWaddleServer, type PlannerFactory } from "@waddle/server";
import type { BenchContext, BenchResult } from "../bench-report.js";
import { DESIGNER_BENCH_AGENT, getBenchGroups, getToolName, makeBenchAgentSpec } from "./bench-agent-spec.js";
import { ChainWalkModel, type ChainWalk } from "./chain-walk-model.js";
import { snapshotDesignerBuild } from "./designer-build.js";
import { launchChromium, VIEWPORT } from "./launch-chromium.js";
import { measureLive, type LiveSample } from "./measure-live.js";
import { measureLoad, type LoadSample } from "./measure-load.js";
import { measureReplay, storeReplayRun, type ReplayOpenSample } from "./measure-replay.js";
import { summarizeDesignerBench } from "./summarize-designer-bench.js";
import { measureValidation } from "./measure-validation.js";
import { getSummary } from "../stats.js";

/** Issue 21: validation in the page after one edit of the 300-tool agent, every check on. */
const VALIDATION_TARGET_P90_MS = 50;

const REPLAY_EVENTS = 10_000;
/** The live runs' model latency per call: none (one burst), and 10 ms (about 900 events a second). */
const LIVE_LATENCIES = [0, 10] as const;

/** The server's planner factory: each run walks the chain its benchmark phase queued for it. */
function createWalkFactory(): { factory: PlannerFactory; queueWalk: (walk: ChainWalk) => void } {
  const queue: ChainWalk[] = [];
  const factory: PlannerFactory = async ({ spec, agentVersion }) => {
    const walk = queue.shift();
    if (walk === undefined) throw new Error("The benchmark started a run it did not configure.");
    const planner = ReactPlanner.fromSpec(spec, {
      llm: new ChainWalkModel(walk),
      agentId: spec.id,
      ...(agentVersion === undefined ? {} : { agentVersion }),
    });
    return { planner, offline: false };
  };
  return { factory, queueWalk: (walk) => queue.push(walk) };
}

/**
 * Issue 12's speed targets for the designer, in Debian's Chromium against a real server (built packages,
 * temporary SQLite data dir, the designer's production build): a 300-tool, 600-edge agent loading to
 * interactive, a live run of thousands of events streamed into the open page, and the replay of a
 * 10,000-event run with scrubber jumps.
 */
export async function runDesignerBench(context: BenchContext): Promise<BenchResult> {
  const loads = context.quick ? 2 : 7;
  const lives = context.quick ? 1 : 3;
  const replays = context.quick ? 1 : 5;
  const designer = snapshotDesignerBuild(context.log);
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-bench-designer-"));
  const { factory, queueWalk } = createWalkFactory();
  const server = await createWaddleServer({
    port: 0,
    dataDir,
    logLevel: "silent",
    designerDir: designer.dir,
    exampleToolsDir: null,
    exampleAgentsDir: null,
    env: {},
    createPlanner: factory,
  });
  const browser = await launchChromium();
  try {
    const spec = makeBenchAgentSpec();
    const created = await fetch(`${server.url}/api/agents`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(spec),
    });
    if (!created.ok) throw new Error(`POST /api/agents answered ${created.status}: ${await created.text()}`);
    const { version } = CreateAgentResponse.parse(await created.json());
    const tools = Array.from({ length: DESIGNER_BENCH_AGENT.tools }, (_, index) => getToolName(index));
    const url = `${server.url}/#/agents/${spec.id}`;

    context.log(`warm-up load, then ${loads} cold loads of the ${tools.length}-tool agent`);
    await measureLoad(browser, url);
    const loadSamples: LoadSample[] = [];
    for (let index = 0; index < loads; index += 1) loadSamples.push(await measureLoad(browser, url));

    const liveSamples: LiveSample[] = [];
    for (const latencyMs of LIVE_LATENCIES) {
      context.log(`${lives} live runs streamed into an open page, model latency ${latencyMs} ms`);
      for (let index = 0; index < lives; index += 1) {
        liveSamples.push(
          await measureLive(browser, { server, agentId: spec.id, tools, latencyMs, queueWalk }),
        );
      }
    }

    context.log(`storing a ${REPLAY_EVENTS}-event run; ${replays} replay opens with scrubber jumps`);
    const replay = await storeReplayRun(server.store, {
      agentId: spec.id,
      agentVersion: version,
      tools,
      groups: getBenchGroups(DESIGNER_BENCH_AGENT.tools),
      events: REPLAY_EVENTS,
    });
    const replaySamples: ReplayOpenSample[] = [];
    for (let index = 0; index < replays; index += 1) {
      replaySamples.push(
        await measureReplay(browser, { url: server.url, agentId: spec.id, replay, jumps: true }),
      );
    }
    context.log("validation after one edit of the agent, every check on (typing into a tool's description)");
    const validation = await measureValidation(browser, {
      url,
      tool: "tool_3",
      edits: context.quick ? 10 : 40,
    });
    const summary = summarizeDesignerBench({
      loads: loadSamples,
      lives: liveSamples,
      replays: replaySamples,
      shape: { ...DESIGNER_BENCH_AGENT, replayEvents: REPLAY_EVENTS },
      browser:
        `Chromium ${browser.version()} (Debian, /usr/bin/chromium), headless, --disable-gpu, ` +
        `${VIEWPORT.width}×${VIEWPORT.height}, on ${cpus().length} cores (${cpus()[0]?.model.trim() ?? "unknown CPU"})`,
      designer: designer.description,
    });
    const validations = getSummary(validation.validationsMs);
    summary.tables.push({
      title: `Validation in the page after one edit of the ${tools.length}-tool agent (validateAgentSpec with every check: templates, auto-seq fit, …)`,
      columns: ["figure", "median ms", "p90 ms", "min ms", "max ms", "n"],
      rows: [
        [
          "one validation",
          Math.round(validations.median * 10) / 10,
          Math.round(validations.p90 * 10) / 10,
          Math.round(validations.min * 10) / 10,
          Math.round(validations.max * 10) / 10,
          validations.n,
        ],
      ],
    });
    summary.targets.push({
      target: `validation after one edit < ${VALIDATION_TARGET_P90_MS} ms at p90`,
      measured: `${Math.round(validations.p90 * 10) / 10} ms`,
      met: validations.p90 < VALIDATION_TARGET_P90_MS,
    });
    summary.notes.push(
      `Typing never waits for validation: it runs on a deferred copy of the spec after the keystroke paints. ` +
        `Input delay (key press → its handler ran) of the keystrokes that took 16 ms or more to paint ` +
        `(Event Timing): ${validation.inputDelaysMs.length} of ${validation.validationsMs.length} keystrokes` +
        (validation.inputDelaysMs.length > 0
          ? `, longest delay ${Math.round(Math.max(...validation.inputDelaysMs))} ms.`
          : "."),
    );
    return summary;
  } finally {
    await browser.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(designer.dir, { recursive: true, force: true });
  }
}
