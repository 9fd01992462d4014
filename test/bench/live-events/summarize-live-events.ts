import type { BenchResult, BenchTable, TargetCheck } from "../bench-report.js";
import { round } from "../format-report.js";
import { getSummary } from "../stats.js";
import type { ClientRecord } from "./client-messages.js";

/** One streaming run: its rate and length, and whether it counts (the warm-up does not). */
export interface Phase {
  label: string;
  rate: number;
  seconds: number;
  measured: boolean;
}

/** What the clients and the store saw of one phase. */
export interface PhaseResult {
  phase: Phase;
  records: ClientRecord[];
  lastSeq: number;
  status: string;
  chunks: number;
  /** CPU time of this (the server's) process over the phase, as a share of one core. */
  serverCpu: number;
}

/** One phase's row in `table`, and its targets: zero loss, and the p99 at 1,000 events/s. */
function summarizePhase(input: { result: PhaseResult; offsetMs: number; table: BenchTable }): TargetCheck[] {
  const { phase, records, lastSeq, status, chunks, serverCpu } = input.result;
  const delays = records.flatMap((record) => record.delays.map((delay) => delay - input.offsetMs));
  const latency = getSummary(delays);
  const complete = records.every(
    (record) =>
      record.duplicates === 0 &&
      record.missing === 0 &&
      record.maxSeq === lastSeq &&
      record.delays.length === chunks,
  );
  const lost = records.reduce((total, record) => total + record.missing + (lastSeq - record.maxSeq), 0);
  const duplicated = records.reduce((total, record) => total + record.duplicates, 0);
  const received = getSummary(
    records.map((record) => (record.delays.length - 1) / ((record.lastChunkAt - record.firstChunkAt) / 1000)),
  );
  const first = records[0]!;
  const emittedSpan = first.lastChunkTs - first.firstChunkTs;
  input.table.rows.push([
    phase.label,
    chunks,
    round((chunks - 1) / (emittedSpan / 1000), 0),
    round(received.median, 0),
    round(latency.median, 2),
    round(latency.p90, 2),
    round(latency.p99, 2),
    round(latency.max, 2),
    `${round(serverCpu * 100, 0)} %`,
    complete ? `every seq 1–${lastSeq} once, all clients` : `lost ${lost}, duplicated ${duplicated}`,
    status,
  ]);
  const targets: TargetCheck[] = [
    {
      target: `zero loss at ${phase.label} (every client saw every seq exactly once)`,
      measured: complete ? "0 lost, 0 duplicated" : `${lost} lost, ${duplicated} duplicated`,
      met: complete,
    },
  ];
  if (phase.rate === 1_000) {
    targets.push({
      target: "p99 ≤ 10 ms at 1,000 events/s",
      measured: `${round(latency.p99, 2)} ms`,
      met: latency.p99 <= 10,
    });
  }
  return targets;
}

/** The table, targets and notes of the measured phases. */
export function summarizeLiveEvents(input: {
  results: readonly PhaseResult[];
  clock: { offsetMs: number; errorMs: number };
  clients: number;
}): BenchResult {
  const { results, clock } = input;
  const table: BenchTable = {
    title: `${input.clients} socket.io clients (own process) subscribed to one run streaming answer chunks`,
    columns: [
      "rate",
      "chunks",
      "events/s emitted",
      "events/s received (per client)",
      "p50 ms",
      "p90 ms",
      "p99 ms",
      "max ms",
      "server CPU",
      "seq check",
      "run",
    ],
    rows: [],
  };
  const targets = results.flatMap((result) => summarizePhase({ result, offsetMs: clock.offsetMs, table }));
  return {
    tables: [table],
    lines: [],
    targets,
    notes: [
      "A real server (createWaddleServer, temporary SQLite data dir) in this process; the run's planner is a " +
        "ReactPlanner whose model streams its answer one word per delta at the given rate, so each delta is " +
        "one llm_stream_chunk event on the real path: planner → RunRecorder → SQLite → hub → socket.io room.",
      `Latency = client receipt − event ts (the planner stamps ts when it emits), corrected by the clients' ` +
        `clock offset measured over IPC (${round(clock.offsetMs, 3)} ms, ± ${round(clock.errorMs, 3)} ms). The ` +
        "clients subscribe from seq 0 before streaming starts; a 1 s warm-up run is not counted.",
    ],
  };
}
