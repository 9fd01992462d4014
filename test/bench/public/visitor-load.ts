import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { PublicChat } from "@waddle/protocol";
import { readMemory, startServerProcess, type ServerProcess } from "../scale/server-process.js";
import { summarizeVisitors, type VisitorFigures } from "./summarize-visitors.js";
import { runVisitor, type PublicChatAddress } from "./visitor-stream.js";

export const BENCH_QUERY = "Where is my order 4471, and when will it arrive?";

/** One mock lookup whose result the offline model writes into an answer of several deltas. */
export const BENCH_AGENT = {
  version: 1,
  id: "order-help",
  name: "Order help",
  tools: [
    {
      name: "lookup_order",
      desc: "Looks up an order's status and delivery",
      sideEffects: "read",
      argsSchema: {
        type: "object",
        properties: { order: { type: "string", default: "4471" } },
        required: ["order"],
      },
      impl: {
        kind: "mock",
        output: {
          status: "shipped",
          carrier: "Parcel Express",
          eta: "Thursday between 9:00 and 13:00",
          items: "2 of 2: a blue rain jacket (size M) and a pair of trail shoes (size 42)",
          note: "The parcel left the warehouse this morning and is on its way to the local depot.",
        },
      },
    },
  ],
};

/**
 * Limits far above what the batch takes (one conversation and one message per visitor, 400 requests in
 * a burst): the default per-visitor 20/min would pass too, but `chatRateLimit` puts the chat's bucket on
 * the path as a busy chat would have it, and neither may refuse anyone here.
 */
export const BENCH_LIMITS = { rateLimit: "600/min", chatRateLimit: "100000/min" } as const;

async function call(
  server: ServerProcess,
  pathname: string,
  method: string,
  body: unknown,
): Promise<unknown> {
  const response = await fetch(`${server.url}${pathname}`, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Saves the agent and turns its public chat on (as the local user of a server without keys). */
export async function publishBenchChat(server: ServerProcess): Promise<PublicChatAddress> {
  await call(server, "/api/agents", "POST", BENCH_AGENT);
  const chat = PublicChat.parse(
    await call(server, `/api/agents/${BENCH_AGENT.id}/public`, "PUT", {
      enabled: true,
      title: "Order help",
      welcome: "Ask me about an order.",
      starters: ["Where is my order?"],
      allowedOrigins: [],
      showSteps: "names",
      ...BENCH_LIMITS,
    }),
  );
  return { url: server.url, publicId: chat.publicId, publishableKey: chat.publishableKey };
}

/** Clock ticks a second, as /proc counts CPU time (`getconf CLK_TCK`; 100 on Linux when unknown). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time the process has used so far, user and system (ms), from /proc/<pid>/stat (Linux). */
export function readCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // the fields after the command name, which may hold spaces, in parentheses: utime and stime are 14 and 15
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** What a batch of visitors did, and the server's resident memory around it (MB). */
export interface BatchResult {
  figures: VisitorFigures;
  /** CPU time the server process used from the batch's start to its last answer (ms). */
  serverCpuMs: number;
  rssBeforeMb: number;
  /** The highest of the 50 ms samples during the batch. */
  rssPeakMb: number;
  /** One second after the last answer ended. */
  rssAfterMb: number;
}

/** `count` visitors start at once and each streams one answer; /proc/<pid>/status is read every 50 ms. */
export async function runVisitorBatch(options: {
  server: ServerProcess;
  chat: PublicChatAddress;
  count: number;
}): Promise<BatchResult> {
  const { server, chat, count } = options;
  const rssBeforeMb = readMemory(server.pid).rssMb;
  const cpuBefore = readCpuMs(server.pid);
  let rssPeakMb = rssBeforeMb;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      rssPeakMb = Math.max(rssPeakMb, readMemory(server.pid).rssMb);
      await sleep(50);
    }
  })();
  const samples = await Promise.all(Array.from({ length: count }, () => runVisitor(chat, BENCH_QUERY)));
  sampling = false;
  await sampler;
  rssPeakMb = Math.max(rssPeakMb, readMemory(server.pid).rssMb);
  const serverCpuMs = readCpuMs(server.pid) - cpuBefore;
  await sleep(1_000);
  return {
    figures: summarizeVisitors(samples),
    serverCpuMs,
    rssBeforeMb,
    rssPeakMb,
    rssAfterMb: readMemory(server.pid).rssMb,
  };
}

/** A server of its own (built, temporary SQLite folder, the offline model) with the chat published on it. */
export async function withBenchServer<T>(
  env: Record<string, string>,
  use: (server: ServerProcess, chat: PublicChatAddress) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "waddle-bench-public-"));
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess({ WADDLE_DATA_DIR: dataDir, ...env });
    return await use(server, await publishBenchChat(server));
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
