import { resolveAgentName, resolveRunTarget, type WaddleStore } from "@waddle/server";
import type { BenchTable } from "../bench-report.js";
import { measureInterleaved, type Contender, type Measurement } from "../measure-interleaved.js";
import { getSummary, type Summary } from "../stats.js";
import { RELEASED_AGENT, SAVED_VERSIONS, SEEDED_CHANNELS, UNRELEASED_AGENT } from "./seed-release-agents.js";

/** One request kind, timed for the agent with releases and, where it means something, the one without. */
export interface RequestKind {
  label: string;
  /** Does what the request does; returns the version it picked (undefined: the latest save). */
  resolve(store: WaddleStore, agentId: string): Promise<number | undefined>;
  /** The version the released agent must get (checked before anything is timed). */
  released: number | undefined;
  /** What the agent without releases must get; absent when it has no such channel (not timed). */
  unreleased?: { version: number | undefined };
  /** Runs on the second store of the same database, so that its reads do not refresh what the others read. */
  apart?: true;
  /**
   * `lookup`: the channel alone; `reads`: a request that also reads a record or the database. Each group
   * has its rotation: on a 2-core machine the sample after a PostgreSQL round trip often waits for a core
   * the database's process holds, which is the machine's cost, not the lookup's.
   */
  group: "lookup" | "reads";
}

export const REQUEST_KINDS: readonly RequestKind[] = [
  {
    label: "REST run, no version (POST /api/runs, /api/sessions): resolveRunTarget",
    resolve: async (store, agentId) => (await resolveRunTarget(store, agentId)).version,
    released: SEEDED_CHANNELS.production,
    unreleased: { version: undefined },
    group: "lookup",
  },
  {
    label: 'REST run, channel "staging": resolveRunTarget',
    resolve: async (store, agentId) =>
      (await resolveRunTarget(store, agentId, { channel: "staging" })).version,
    released: SEEDED_CHANNELS.staging,
    group: "lookup",
  },
  {
    label: '/v1, MCP, A2A "<agent>": resolveAgentName, the record that runs included',
    resolve: async (store, agentId) => (await resolveAgentName(store, agentId, "@"))?.agent.version,
    released: SEEDED_CHANNELS.production,
    unreleased: { version: SAVED_VERSIONS },
    group: "reads",
  },
  {
    label: '/v1 "<agent>@staging": resolveAgentName, the record included',
    resolve: async (store, agentId) =>
      (await resolveAgentName(store, `${agentId}@staging`, "@"))?.agent.version,
    released: SEEDED_CHANNELS.staging,
    group: "reads",
  },
  {
    label: "for comparison: the record alone (store.getAgent, what /v1 read before releases)",
    resolve: async (store, agentId) => (await store.getAgent(agentId))?.version,
    released: SAVED_VERSIONS,
    unreleased: { version: SAVED_VERSIONS },
    group: "reads",
  },
  {
    label: "for comparison: a fresh channel read (releasing; a PostgreSQL instance every 500 ms)",
    resolve: async (store, agentId) => (await store.releases.getChannel(agentId, "production"))?.version,
    released: SEEDED_CHANNELS.production,
    unreleased: { version: undefined },
    apart: true,
    group: "reads",
  },
];

/** Per request kind: the agent with releases, and the one without when it was timed. */
export interface ResolveFigures {
  store: string;
  rounds: number;
  rows: { label: string; released: Summary; unreleased?: Summary }[];
}

/** Fails the benchmark before timing anything when a request picks the wrong version. */
async function checkVersions(storeOf: (kind: RequestKind) => WaddleStore): Promise<void> {
  for (const kind of REQUEST_KINDS) {
    const store = storeOf(kind);
    const released = await kind.resolve(store, RELEASED_AGENT);
    if (released !== kind.released) throw new Error(`${kind.label}: got v${released}, not v${kind.released}`);
    if (!kind.unreleased) continue;
    const unreleased = await kind.resolve(store, UNRELEASED_AGENT);
    if (unreleased !== kind.unreleased.version) {
      throw new Error(`${kind.label}, no releases: got v${unreleased}, not v${kind.unreleased.version}`);
    }
  }
}

/**
 * Every request kind on both agents of a seeded store, one request per sample, in rounds that take the kinds
 * of a group in a rotating order (so that the machine's load falls on each alike); per-request latency in ms. `apart`
 * kinds run on `apart` (another store on the same database, as another instance would be) when given.
 */
export async function measureResolve(options: {
  label: string;
  store: WaddleStore;
  apart?: WaddleStore;
  rounds: number;
}): Promise<ResolveFigures> {
  const storeOf = (kind: RequestKind) => (kind.apart && options.apart) || options.store;
  await checkVersions(storeOf);
  const groups: Record<RequestKind["group"], Contender[]> = { lookup: [], reads: [] };
  for (const kind of REQUEST_KINDS) {
    const store = storeOf(kind);
    const contenders = groups[kind.group];
    contenders.push({
      name: `${kind.label}|released`,
      units: 1,
      run: () => kind.resolve(store, RELEASED_AGENT),
    });
    if (kind.unreleased) {
      contenders.push({
        name: `${kind.label}|unreleased`,
        units: 1,
        run: () => kind.resolve(store, UNRELEASED_AGENT),
      });
    }
  }
  const measured: Measurement[] = [];
  for (const contenders of Object.values(groups)) {
    measured.push(
      ...(await measureInterleaved({
        contenders,
        rounds: options.rounds,
        warmupMs: 300,
        sampleMs: 0,
        // A request starts on an empty event loop: what the one before left queued is its cost, not this one's.
        beforeSample: () => new Promise<void>((resolve) => setImmediate(resolve)),
      })),
    );
  }
  const summaryOf = (name: string) => {
    const found = measured.find((measurement) => measurement.name === name);
    return found && getSummary(found.perUnitUs.map((us) => us / 1000));
  };
  return {
    store: options.label,
    rounds: options.rounds,
    rows: REQUEST_KINDS.map((kind) => {
      const unreleased = summaryOf(`${kind.label}|unreleased`);
      return {
        label: kind.label,
        released: summaryOf(`${kind.label}|released`)!,
        ...(unreleased ? { unreleased } : {}),
      };
    }),
  };
}

const ms = (value: number) => value.toFixed(4);

/** The agent without releases and the one with, side by side: p50, p99 and mean, ms per request. */
export function getResolveTable(figures: ResolveFigures): BenchTable {
  return {
    title: `${figures.store}: ms per request (${figures.rounds} each), no releases | production + staging`,
    columns: [
      "request",
      "none p50",
      "none p99",
      "none mean",
      "released p50",
      "released p99",
      "released mean",
    ],
    rows: figures.rows.map((row) => [
      row.label,
      ...(row.unreleased
        ? [row.unreleased.median, row.unreleased.p99, row.unreleased.mean].map(ms)
        : ["—", "—", "—"]),
      ...[row.released.median, row.released.p99, row.released.mean].map(ms),
    ]),
  };
}
