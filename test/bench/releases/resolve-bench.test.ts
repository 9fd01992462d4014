import { MemoryStore } from "@waddle/server";
import { describe, expect, it } from "vitest";
import { getResolveTable, measureResolve, REQUEST_KINDS } from "./resolve-bench.js";
import { RELEASED_AGENT, seedReleaseAgents, SEEDED_CHANNELS } from "./seed-release-agents.js";

describe("the releases benchmark's resolution part", () => {
  it("seeds production and staging after a history, and times every request kind on both agents", async () => {
    const store = new MemoryStore();
    await seedReleaseAgents(store);
    const channels = await store.releases.listChannels(RELEASED_AGENT);
    expect(channels.map((channel) => [channel.name, channel.version])).toEqual([
      ["production", SEEDED_CHANNELS.production],
      ["staging", SEEDED_CHANNELS.staging],
    ]);
    expect((await store.releases.list(RELEASED_AGENT)).map((release) => release.kind)).toContain("rollback");

    const figures = await measureResolve({ label: "in memory", store, rounds: 3 });
    const table = getResolveTable(figures);
    expect(table.rows).toHaveLength(REQUEST_KINDS.length);
    expect(table.columns).toHaveLength(7);
    // A channel only the released agent has is timed for it alone.
    const staging = table.rows[1]!;
    expect(staging.slice(1, 4)).toEqual(["—", "—", "—"]);
    expect(Number(staging[4])).toBeGreaterThan(0);
  });
});
