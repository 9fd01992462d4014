import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resolveRunTarget, SERVING_CHANNEL_MAX_AGE_MS } from "../../releases/resolve-run-target.js";
import { getMissingPartsReason } from "../../testing/real-parts.js";
import { startTestPostgres, type TestPostgres } from "../../testing/start-postgres.js";
import pg from "pg";
import { PgStore } from "../pg-store.js";
import { ChannelCache } from "./channel-cache.js";
import { PgReleaseStore } from "./pg-release-store.js";
import type { StoredRelease } from "./release-store.js";

const skip = getMissingPartsReason(["postgres"]);

const release = (id: string, version: number, previousReleaseId: string | null): StoredRelease => ({
  id,
  agentId: "triage",
  channel: "production",
  version,
  previousVersion: null,
  previousReleaseId,
  kind: "release",
  releasedAt: "2026-11-01T00:00:00.000Z",
  releasedBy: "ops",
  notes: null,
  testRunId: null,
  overrideReason: null,
});

/** No clock is moved here: "at most an hour old" keeps what was read for the whole test. */
const HOUR = { maxAgeMs: 3_600_000 };

describe.skipIf(skip)("PostgreSQL serving reads of channels (two instances on one database)", () => {
  let postgres: TestPostgres;
  let first: PgStore;
  let second: PgStore;
  let url: string;
  beforeAll(async () => {
    postgres = await startTestPostgres();
    url = await postgres.createDatabase();
    first = await PgStore.open({ connectionString: url });
    second = await PgStore.open({ connectionString: url });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await postgres?.destroy();
  });

  it("answers a serving read from what it read, a fresh read from the database, and its own release at once", async () => {
    expect(await second.releases.getChannel("triage", "production", HOUR)).toBeUndefined();
    await first.releases.create(release("rel_1", 1, null), { expectedReleaseId: null });
    // Another instance's release: a serving read may still answer what it read; a fresh one never does.
    expect(await second.releases.getChannel("triage", "production", HOUR)).toBeUndefined();
    expect((await second.releases.getChannel("triage", "production"))?.version).toBe(1);
    expect((await second.releases.getChannel("triage", "production", { maxAgeMs: 0 }))?.version).toBe(1);

    // This instance's own release is served at once, whatever age the reader allows.
    await second.releases.create(release("rel_2", 2, "rel_1"), { expectedReleaseId: "rel_1" });
    expect((await second.releases.getChannel("triage", "production", HOUR))?.version).toBe(2);
    expect((await first.releases.getChannel("triage", "production"))?.version).toBe(2);

    await second.releases.deleteAgent("triage");
    expect(await second.releases.getChannel("triage", "production", HOUR)).toBeUndefined();
  });

  it("reads a channel in use again in the background past half its allowed age, and answers meanwhile", async () => {
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    const clock = { now: 0 };
    const queries: Promise<unknown>[] = [];
    const reader = new PgReleaseStore(
      (text, params) => {
        const query = pool.query(text, params);
        queries.push(query);
        return query;
      },
      new ChannelCache(() => clock.now),
    );
    try {
      await first.releases.create({ ...release("rel_10", 1, null), agentId: "busy" });
      const serving = { maxAgeMs: 500 };
      expect((await reader.getChannel("busy", "production", serving))?.version).toBe(1);
      await first.releases.create({ ...release("rel_11", 2, "rel_10"), agentId: "busy" });
      clock.now = 251;
      // Past half its age: answered from the copy, and read again once, in the background.
      const before = queries.length;
      expect((await reader.getChannel("busy", "production", serving))?.version).toBe(1);
      expect((await reader.getChannel("busy", "production", serving))?.version).toBe(1);
      // The read starts on the next turn of the event loop, never on the caller's time.
      expect(queries.length).toBe(before);
      await new Promise((resolve) => setImmediate(resolve));
      expect(queries.length).toBe(before + 1);
      await queries.at(-1);
      expect((await reader.getChannel("busy", "production", serving))?.version).toBe(2);
      expect(queries.length).toBe(before + 1);
    } finally {
      await pool.end();
    }
  });

  it("resolves serving requests with reads at most SERVING_CHANNEL_MAX_AGE_MS old, within the second asked", async () => {
    expect(SERVING_CHANNEL_MAX_AGE_MS).toBeLessThanOrEqual(500);
    await first.releases.create({ ...release("rel_3", 3, null), agentId: "served" });
    const reads = vi.spyOn(first.releases, "getChannel");
    expect(await resolveRunTarget(first, "served")).toEqual({ version: 3, channel: "production" });
    await expect(resolveRunTarget(first, "served", { channel: "staging" })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(reads.mock.calls).toEqual([
      ["served", "production", { maxAgeMs: SERVING_CHANNEL_MAX_AGE_MS }],
      ["served", "staging", { maxAgeMs: SERVING_CHANNEL_MAX_AGE_MS }],
    ]);
    reads.mockRestore();
  });
});
