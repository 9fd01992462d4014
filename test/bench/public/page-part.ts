import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContextOptions } from "@playwright/test";
import { PublicChat } from "@waddle/protocol";
import { createWaddleServer } from "@waddle/server";
import type { BenchContext, BenchResult, BenchTable } from "../bench-report.js";
import { snapshotDesignerBuild } from "../designer/designer-build.js";
import { launchChromium } from "../designer/launch-chromium.js";
import { round } from "../format-report.js";
import { getSummary } from "../stats.js";
import {
  DESKTOP,
  measurePageReady,
  PHONE,
  type ReadyCondition,
  type ReadySample,
} from "./measure-page-ready.js";
import { getPageWeight, type AssetWeight } from "./page-weight.js";
import { BENCH_AGENT, BENCH_LIMITS } from "./visitor-load.js";

const CHAT_TITLE = "Order help";
const CHAT_READY: readonly ReadyCondition[] = [
  { selector: "h1.chat-title", text: CHAT_TITLE },
  { selector: "[data-testid=chat-input]", enabled: true },
];
/** The designer's first paint of its agents list: an agent's row in the sidebar. */
const DESIGNER_READY: readonly ReadyCondition[] = [{ selector: '[data-testid^="agent-item-"]' }];

interface PageRow {
  page: string;
  window: string;
  context: BrowserContextOptions;
  cpuSlowdown: number;
  path: (publicId: string) => string;
  conditions: readonly ReadyCondition[];
}

const ROWS: readonly PageRow[] = [
  ...[1, 4].map((cpuSlowdown) => ({
    page: "hosted chat (/chat/:publicId)",
    window: "phone 390×844 @3x, touch",
    context: PHONE,
    cpuSlowdown,
    path: (publicId: string) => `/chat/${publicId}`,
    conditions: CHAT_READY,
  })),
  ...[1, 4].map((cpuSlowdown) => ({
    page: "hosted chat (/chat/:publicId)",
    window: "desktop 1440×900",
    context: DESKTOP,
    cpuSlowdown,
    path: (publicId: string) => `/chat/${publicId}`,
    conditions: CHAT_READY,
  })),
  ...[1, 4].map((cpuSlowdown) => ({
    page: "designer (/), for comparison",
    window: "desktop 1440×900",
    context: DESKTOP,
    cpuSlowdown,
    path: () => "/",
    conditions: DESIGNER_READY,
  })),
];

/** kB of 1,000 bytes, as vite reports the build. */
const kb = (bytes: number) => round(bytes / 1000, 1);
const weightCells = (weight: AssetWeight) => [weight.files, kb(weight.rawBytes), kb(weight.gzipBytes)];

/** Saves the bench agent and turns its chat on; answers its public id. */
async function publish(url: string): Promise<string> {
  const post = (pathname: string, method: string, body: unknown) =>
    fetch(`${url}${pathname}`, {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then(async (response) => {
      if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<unknown>;
    });
  await post("/api/agents", "POST", BENCH_AGENT);
  const chat = PublicChat.parse(
    await post(`/api/agents/${BENCH_AGENT.id}/public`, "PUT", {
      enabled: true,
      title: CHAT_TITLE,
      welcome: "Ask me about an order.",
      starters: ["Where is my order?"],
      allowedOrigins: [],
      showSteps: "names",
      ...BENCH_LIMITS,
    }),
  );
  return chat.publicId;
}

/**
 * The hosted page's weight (read from the built files it references) and its time to ready in Chromium,
 * on a phone and a desktop window, unthrottled and with the CPU slowed 4×, beside the designer's.
 */
export async function runPagePart(context: BenchContext): Promise<BenchResult> {
  const loads = context.quick ? 2 : 9;
  const build = snapshotDesignerBuild(context.log);
  if (!existsSync(path.join(build.dir, "chat.html"))) {
    rmSync(build.dir, { recursive: true, force: true });
    throw new Error("designer/dist/chat.html is missing: run `npm run build -w @waddle/designer`.");
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-bench-public-page-"));
  const server = await createWaddleServer({
    port: 0,
    dataDir,
    logLevel: "silent",
    designerDir: build.dir,
    env: {},
  });
  const browser = await launchChromium();
  try {
    const publicId = await publish(server.url);
    const samples: ReadySample[][] = ROWS.map(() => []);
    const measure = (row: PageRow) =>
      measurePageReady({
        browser,
        url: `${server.url}${row.path(publicId)}`,
        context: row.context,
        conditions: row.conditions,
        cpuSlowdown: row.cpuSlowdown,
      });
    context.log(`a warm-up load of each page, then ${loads} cold loads of each, in turn`);
    for (const row of ROWS) await measure(row);
    for (let pass = 0; pass < loads; pass += 1) {
      for (const [index, row] of ROWS.entries()) samples[index]!.push(await measure(row));
    }
    const chat = getPageWeight(build.dir, "chat.html");
    const designer = getPageWeight(build.dir, "index.html");
    const median = (values: number[]) => round(getSummary(values).median, 0);
    const timing: BenchTable = {
      title: `Time to ready in Chromium ${browser.version()} (headless, --disable-gpu), median of ${loads} cold loads each`,
      columns: [
        "page",
        "window",
        "CPU",
        "ready median ms",
        "ready p90 ms",
        "first paint ms",
        "long tasks ms",
        "JS fetched kB",
        "loop check ms",
      ],
      rows: ROWS.map((row, index) => {
        const list = samples[index]!;
        const paints = list.flatMap((sample) => sample.firstContentfulPaintMs ?? []);
        return [
          row.page,
          row.window,
          row.cpuSlowdown === 1 ? "as is" : `${row.cpuSlowdown}× slower`,
          median(list.map((sample) => sample.readyMs)),
          round(getSummary(list.map((sample) => sample.readyMs)).p90, 0),
          paints.length === 0 ? "—" : median(paints),
          median(list.map((sample) => sample.longTasksMs)),
          kb(getSummary(list.map((sample) => sample.scriptBytes)).median),
          median(list.map((sample) => sample.loopMs)),
        ];
      }),
    };
    const weight: BenchTable = {
      title:
        "Weight of what each page references (the built files, kB of 1,000 bytes; gzip at zlib's default level 6)",
      columns: ["page", "HTML kB", "JS files", "JS kB", "JS gzip kB", "CSS files", "CSS kB", "CSS gzip kB"],
      rows: [
        [
          "hosted chat (chat.html)",
          kb(chat.html.rawBytes),
          ...weightCells(chat.js),
          ...weightCells(chat.css),
        ],
        [
          "designer (index.html)",
          kb(designer.html.rawBytes),
          ...weightCells(designer.js),
          ...weightCells(designer.css),
        ],
      ],
    };
    return {
      tables: [weight, timing],
      lines: [
        `public-page-js-gzip-kb: ${kb(chat.js.gzipBytes)}`,
        `public-page-ready-ms: phone ${timing.rows[0]![3]} · phone 4× ${timing.rows[1]![3]}`,
      ],
      targets: [],
      notes: [
        `Weights: ${chat.assets.join(", ")} and ${designer.assets.join(", ")} in ${build.description}. The Waddle server sends them as built (it does not compress); the gzip columns are what a proxy with gzip on would send. The designer loads more code later (the ELK layout chunk when it lays out a graph), not counted here.`,
        "Ready: from navigation start to the DOM mutation after which the page is usable, seen by a MutationObserver installed before the page's scripts: for the hosted chat, the chat's title shown in its header (the page reads GET config first) and the message box enabled; for the designer, the first agent's row in its sidebar list (the server's example agents plus the bench's). Each load opens a new browser context (nothing cached), with the HTTP cache also off (CDP Network.setCacheDisabled), over loopback with no network throttling; the pages take turns, load after load.",
        "The CPU is slowed with CDP Emulation.setCPUThrottlingRate (rate 4) for the 4× rows. The loop check is a fixed 2-million-step loop timed in the page once it is ready: it shows the throttling held across the navigation (4 times as long on an idle machine, less where the unthrottled loop waits for a core too). First paint is first-contentful-paint; long tasks are those of 50 ms or more that began before ready, summed; JS fetched is the scripts' encoded bodies by then (resource timing).",
        `The server runs in the benchmark's process (built packages, a temporary SQLite folder, the offline model), with the chat's rate limits set high (${BENCH_LIMITS.rateLimit} per visitor, ${BENCH_LIMITS.chatRateLimit} for the chat) as in the load part.`,
      ],
    };
  } finally {
    await browser.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(build.dir, { recursive: true, force: true });
  }
}
