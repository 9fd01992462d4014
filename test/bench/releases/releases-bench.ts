import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MemoryStore, PgStore, SqliteStore, type WaddleStore } from "@waddle/server";
import { findPostgresBin, startTestPostgres } from "@waddle/server/testing";
import type { BenchContext, BenchResult, TargetCheck } from "../bench-report.js";
import { getResolveTable, measureResolve, type ResolveFigures } from "./resolve-bench.js";
import { measureShadow } from "./shadow-bench.js";
import { seedReleaseAgents } from "./seed-release-agents.js";

const TARGET_MS = 0.1;

/** A store to seed and measure, and how to let go of it. */
interface BenchStore {
  label: string;
  key: string;
  /** `apart`: a second store on the same database, where reads would otherwise share a kept copy. */
  open(): Promise<{ store: WaddleStore; apart?: WaddleStore; close(): Promise<void> }>;
}

const STORES: readonly BenchStore[] = [
  {
    label: "SQLite (the default: one process, a file in a temporary folder)",
    key: "sqlite",
    open: async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "waddle-bench-releases-"));
      // As the server opens it: checkpoints off the commit path.
      const store = new SqliteStore(path.join(dir, "waddle.db"), { backgroundCheckpoints: true });
      return {
        store,
        close: async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    label: "in memory",
    key: "memory",
    open: async () => ({ store: new MemoryStore(), close: async () => undefined }),
  },
  {
    label: "PostgreSQL (queue mode; a local cluster over TCP)",
    key: "postgres",
    open: async () => {
      const postgres = await startTestPostgres();
      const connectionString = await postgres.createDatabase();
      const store = await PgStore.open({ connectionString });
      const apart = await PgStore.open({ connectionString });
      return {
        store,
        apart,
        close: async () => {
          await Promise.all([store.close(), apart.close()]);
          await postgres.destroy();
        },
      };
    },
  },
];

/** The request a REST run makes, worst of the two agents: the figure the issue sets a goal for. */
const restP99 = (figures: ResolveFigures) => {
  const row = figures.rows[0]!;
  return Math.max(row.released.p99, row.unreleased?.p99 ?? 0);
};

/** Resolving channels on each store: a table each, a target each. */
async function runResolveBench(context: BenchContext): Promise<BenchResult> {
  const rounds = context.quick ? 1_000 : 20_000;
  const measured: ResolveFigures[] = [];
  for (const entry of STORES) {
    if (entry.key === "postgres" && findPostgresBin() === undefined) {
      context.log("PostgreSQL is not installed: its table is left out");
      continue;
    }
    const { store, apart, close } = await entry.open();
    try {
      await seedReleaseAgents(store);
      context.log(`${entry.label}: seeded, ${rounds} rounds`);
      measured.push(await measureResolve({ label: entry.label, store, rounds, ...(apart ? { apart } : {}) }));
    } finally {
      await close();
    }
  }
  const targets: TargetCheck[] = measured.map((figures) => ({
    target: `${figures.store.split(" (")[0]}: resolving a channel for a REST run under ${TARGET_MS} ms at p99`,
    measured: `${restP99(figures).toFixed(4)} ms`,
    met: restP99(figures) < TARGET_MS,
  }));
  return {
    tables: measured.map(getResolveTable),
    lines: [
      `releases-resolve-p99-ms: ${measured.map((figures, index) => `${STORES[index]!.key} ${restP99(figures).toFixed(4)}`).join(" · ")}`,
    ],
    targets,
    notes: [
      "In process, at the resolver every serving surface calls (no HTTP: no route resolves a channel without starting a run or diffing specs). Each store is seeded alike: two agents saved from the support-triage example (4.5 KB spec, 6 versions each), one never released, one with production (v3, after a rollback) and staging (v6) over 10 releases, beside 40 other agents with a production release. Each request's version is checked before anything is timed.",
      "One request per sample, each after a turn of the event loop; after a 300 ms warm-up each, the requests and agents of a store take turns in a rotating order (measure-interleaved.ts), so that load falls on all alike: the two REST lookups in one rotation, the requests that read the database in another (on 2 cores, the sample right after a PostgreSQL round trip often waits for a core the database's process holds: the machine's cost, not the lookup's). p99 over the samples; max is left out (a GC pause or the machine, not the request).",
      "/v1, MCP and A2A read the agent's record to run it, so their rows include it: compare them with the record alone. Before the work on this benchmark they read it twice, and SQLite prepared the channel query on every call (p50 0.02 ms, p99 0.11–0.14 ms for a REST run; 0.09 ms p50 for /v1).",
      "PostgreSQL instances answer serving reads from what they read of a channel at most 500 ms ago (missing channels included; their own releases at once), and past half that age one request reads it again in the background, so a channel in use is never waited for: its rows are that copy. The fresh read (on a second store, so that it does not renew that copy) is what every request paid before (one round trip), and what a channel nobody asked for in 500 ms costs its next request.",
    ],
  };
}

/** The wall time of a 20-case shadow comparison on the offline model (shadow-bench.ts). */
async function runShadowPart(context: BenchContext): Promise<BenchResult> {
  const row = await measureShadow({ quick: context.quick, log: context.log });
  if (row.sameTools !== row.cases || row.notRecorded !== 0) {
    throw new Error(
      `An unchanged candidate must reproduce every case: ${row.sameTools} of ${row.cases} took the same tools, ${row.notRecorded} calls were not recorded.`,
    );
  }
  const ms = (value: number) => value.toFixed(1);
  return {
    tables: [
      {
        title: `A shadow comparison (POST /api/agents/:id/shadow, request to stored report), ${row.rounds} rounds after a warm-up`,
        columns: ["comparison", "cases", "median ms", "p90 ms", "per case ms", "one candidate run ms"],
        rows: [
          [row.name, row.cases, ms(row.wallMs), ms(row.p90WallMs), ms(row.perCaseMs), ms(row.candidateRunMs)],
        ],
      },
    ],
    lines: [`releases-shadow-${row.cases}-cases-ms: ${ms(row.wallMs)}`],
    targets: [],
    notes: [
      `A server in this process (SQLite in a temporary folder, the offline model) with ${row.cases} ended production runs of support-triage; the candidate is the same spec saved again, so every case reproduces its recording (${row.sameTools} of ${row.cases} took the same tools, ${row.notRecorded} calls not recorded). Cases run four at a time; the offline model paces its final answer at 30 ms a chunk for the canvas, which is most of a candidate run.`,
    ],
  };
}

/**
 * `npm run bench -- releases`: its parts run one after the other and their tables, lines, targets and notes
 * are reported together. A part is a function of the benchmark's context, as a benchmark is.
 */
const PARTS: readonly ((context: BenchContext) => Promise<BenchResult>)[] = [runResolveBench, runShadowPart];

export async function runReleasesBench(context: BenchContext): Promise<BenchResult> {
  const result: BenchResult = { tables: [], lines: [], targets: [], notes: [] };
  for (const part of PARTS) {
    const next = await part(context);
    result.tables.push(...next.tables);
    result.lines.push(...next.lines);
    result.targets.push(...next.targets);
    result.notes.push(...next.notes);
  }
  return result;
}
