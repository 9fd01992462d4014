import type { BenchContext, BenchResult, BenchTable } from "../bench-report.js";
import { round } from "../format-report.js";
import { getServerCommand } from "../scale/server-process.js";
import { BENCH_LIMITS, runVisitorBatch, withBenchServer, type BatchResult } from "./visitor-load.js";
import { runVisitor } from "./visitor-stream.js";

/** The server's default `WADDLE_MAX_CONCURRENT_RUNS`: past it, turns wait in the run queue. */
const DEFAULT_CONCURRENT_RUNS = 4;

interface Row {
  label: string;
  runsAtOnce: number;
  batch: BatchResult;
}

const ms = (value: number) => (Number.isFinite(value) ? round(value, 0) : "—");

function getLatencyTable(rows: readonly Row[]): BenchTable {
  return {
    title:
      "Visitors streaming one answer each, all at once (ms from the visitor's request; gaps between the deltas of one answer)",
    columns: [
      "batch",
      "runs at once",
      "first delta p50",
      "first delta p99",
      "gap p50",
      "gap p99",
      "worst answer's p99 gap",
      "deltas an answer",
      "whole answer p99",
      "all done",
      "errors",
    ],
    rows: rows.map(({ label, runsAtOnce, batch: { figures } }) => [
      label,
      runsAtOnce,
      ms(figures.firstDelta.median),
      ms(figures.firstDelta.p99),
      ms(figures.gap.median),
      ms(figures.gap.p99),
      ms(figures.worstStreamP99Gap),
      figures.deltasPerStream,
      ms(figures.wholeAnswer.p99),
      ms(figures.wallMs),
      figures.errors,
    ]),
  };
}

function getServerTable(rows: readonly Row[]): BenchTable {
  return {
    title:
      "Opening the conversations (POST sessions, ms), the server's CPU time over the batch (/proc/<pid>/stat, user + system) and its resident memory (MB, /proc/<pid>/status VmRSS every 50 ms)",
    columns: [
      "batch",
      "session p50",
      "session p99",
      "server CPU ms",
      "CPU ms a visitor",
      "RSS before",
      "RSS peak",
      "RSS 1 s after",
      "peak − before",
    ],
    rows: rows.map(({ label, batch }) => [
      label,
      ms(batch.figures.session.median),
      ms(batch.figures.session.p99),
      ms(batch.serverCpuMs),
      round(batch.serverCpuMs / batch.figures.visitors, 1),
      round(batch.rssBeforeMb, 1),
      round(batch.rssPeakMb, 1),
      round(batch.rssAfterMb, 1),
      round(batch.rssPeakMb - batch.rssBeforeMb, 1),
    ]),
  };
}

/**
 * Issue 33: `visitors` anonymous visitors at once on one server, each opening a conversation and streaming
 * one answer: time to the first delta, the gaps between deltas, errors and the server's memory. Then the
 * same with the server's default run concurrency, where turns queue.
 */
export async function runVisitorsPart(context: BenchContext): Promise<BenchResult> {
  const visitors = context.quick ? 20 : 200;
  const batches = context.quick ? 1 : 3;
  const rows: Row[] = [];
  await withBenchServer({ WADDLE_MAX_CONCURRENT_RUNS: String(visitors) }, async (server, chat) => {
    context.log(`one visitor alone (warm-up), then ${batches} batches of ${visitors} visitors at once`);
    const alone = await runVisitor(chat, "Where is my order?");
    if (alone.error !== null) throw new Error(`the warm-up visitor got no answer: ${alone.error}`);
    const single = await runVisitorBatch({ server, chat, count: 1 });
    rows.push({ label: "1 visitor", runsAtOnce: visitors, batch: single });
    for (let index = 1; index <= batches; index += 1) {
      const batch = await runVisitorBatch({ server, chat, count: visitors });
      context.log(`batch ${index}: ${batch.figures.errors} errors, ${round(batch.figures.wallMs, 0)} ms`);
      rows.push({ label: `${visitors} at once, #${index}`, runsAtOnce: visitors, batch });
    }
  });
  if (!context.quick) {
    context.log(
      `${visitors} visitors at once on a server with the default ${DEFAULT_CONCURRENT_RUNS} runs at once`,
    );
    await withBenchServer({}, async (server, chat) => {
      await runVisitor(chat, "Where is my order?");
      const batch = await runVisitorBatch({ server, chat, count: visitors });
      rows.push({ label: `${visitors} at once, default`, runsAtOnce: DEFAULT_CONCURRENT_RUNS, batch });
    });
  }
  const main = rows.filter((row) => row.batch.figures.visitors === visitors && row.runsAtOnce === visitors);
  const worst = (pick: (row: Row) => number) => Math.max(...main.map(pick));
  const reasons = [...new Set(rows.flatMap((row) => row.batch.figures.errorReasons))];
  return {
    tables: [getLatencyTable(rows), getServerTable(rows)],
    lines: [
      `public-${visitors}-first-delta-p99-ms: ${main.map((row) => ms(row.batch.figures.firstDelta.p99)).join(" · ")}`,
      `public-${visitors}-gap-p99-ms: ${main.map((row) => ms(row.batch.figures.gap.p99)).join(" · ")}`,
      `public-${visitors}-peak-rss-mb: ${round(
        worst((row) => row.batch.rssPeakMb),
        1,
      )}`,
    ],
    targets: [],
    notes: [
      `The server runs in its own process (node ${getServerCommand().join(" ")}), on a temporary SQLite folder with the offline model, info logs to a pipe; the visitors are this process's fetch calls over loopback (no Origin header, as a server-side client), each an anonymous visitor as the hosted page is: POST /public/:publicId/sessions with the publishable key, then POST …/sessions/:id/turns with its visitor token, reading the server-sent events to done. All start in the same tick. Every event is checked against PublicStreamEvent, and an answer counts only when done says finished and its deltas add up to the answer event; anything else is an error${reasons.length === 0 ? " (none in this run)" : `: ${reasons.join("; ")}`}.`,
      `The agent makes one mock lookup, then the offline model writes the answer from its result, streamed in 24-character pieces 30 ms apart (its pacing: so a gap under load is 30 ms plus what the server and the machine add). The chat's rate limits are set far above the burst (${BENCH_LIMITS.rateLimit} per visitor, ${BENCH_LIMITS.chatRateLimit} for the whole chat) so that the limiter refuses no one while its buckets are still consulted on every request; the default per-visitor 20/min would pass too, since each visitor sends one message.`,
      `"runs at once" is WADDLE_MAX_CONCURRENT_RUNS: ${visitors} so that every turn runs as it arrives${context.quick ? "" : `; the default row keeps the server's default ${DEFAULT_CONCURRENT_RUNS}, and the other turns wait in the run queue, so their first delta waits too`}. RSS before is read just before a batch starts, peak is the highest sample during it, after is read 1 s after its last answer. The server's CPU time is the figure the machine's other load moves least: the latencies are wall time, and on a shared machine the server waits for a core.`,
    ],
  };
}
