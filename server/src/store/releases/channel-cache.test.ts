import { describe, expect, it } from "vitest";
import { ChannelCache } from "./channel-cache.js";
import type { StoredChannel } from "./release-store.js";

const channel = (version: number): StoredChannel => ({
  name: "production",
  version,
  releasedAt: "2026-11-01T00:00:00.000Z",
  releasedBy: "ops",
  notes: null,
  testRunId: null,
  releaseId: `rel_${version}`,
});

/** A cache on a clock the test moves. */
function makeCache() {
  const clock = { now: 1_000 };
  return { clock, cache: new ChannelCache(() => clock.now) };
}

describe("ChannelCache", () => {
  it("answers a read no older than the reader allows, a missing channel included, and nothing after", () => {
    const { clock, cache } = makeCache();
    expect(cache.get("triage", "production", 500)).toBeUndefined();
    cache.keep({ agentId: "triage", name: "production", channel: channel(3), read: cache.begin() });
    cache.keep({ agentId: "fresh", name: "production", channel: undefined, read: cache.begin() });
    clock.now += 500;
    expect(cache.get("triage", "production", 500)?.channel).toEqual(channel(3));
    expect(cache.get("fresh", "production", 500)).toMatchObject({ channel: undefined });
    expect(cache.get("triage", "staging", 500)).toBeUndefined();
    clock.now += 1;
    expect(cache.get("triage", "production", 500)).toBeUndefined();
    expect(cache.get("fresh", "production", 500)).toBeUndefined();
  });

  it("counts a read's age from when it began, not from when it came back", () => {
    const { clock, cache } = makeCache();
    const read = cache.begin();
    clock.now += 400;
    cache.keep({ agentId: "triage", name: "production", channel: channel(3), read });
    clock.now += 101;
    expect(cache.get("triage", "production", 500)).toBeUndefined();
  });

  it("forgets an agent at once, and never keeps a read that began before the forget", () => {
    const { cache } = makeCache();
    cache.keep({ agentId: "triage", name: "production", channel: channel(3), read: cache.begin() });
    const slow = cache.begin();
    cache.forget("triage");
    expect(cache.get("triage", "production", 500)).toBeUndefined();
    cache.keep({ agentId: "triage", name: "production", channel: channel(3), read: slow });
    expect(cache.get("triage", "production", 500)).toBeUndefined();
    cache.keep({ agentId: "triage", name: "production", channel: channel(4), read: cache.begin() });
    expect(cache.get("triage", "production", 500)?.channel?.version).toBe(4);
  });

  it("asks the first caller past half the allowed age to read again, and answers it and the others meanwhile", () => {
    const { clock, cache } = makeCache();
    cache.keep({ agentId: "triage", name: "production", channel: channel(3), read: cache.begin() });
    clock.now += 250;
    expect(cache.get("triage", "production", 500)?.refresh).toBe(false);
    clock.now += 1;
    expect(cache.get("triage", "production", 500)).toEqual({ channel: channel(3), refresh: true });
    expect(cache.get("triage", "production", 500)).toEqual({ channel: channel(3), refresh: false });
    // The read again came back: a new entry, its own half-life.
    cache.keep({ agentId: "triage", name: "production", channel: channel(4), read: cache.begin() });
    expect(cache.get("triage", "production", 500)).toEqual({ channel: channel(4), refresh: false });
    clock.now += 251;
    expect(cache.get("triage", "production", 500)?.refresh).toBe(true);
  });

  it("hands out copies, so that a caller cannot change what the next one reads", () => {
    const { cache } = makeCache();
    const kept = channel(3);
    cache.keep({ agentId: "triage", name: "production", channel: kept, read: cache.begin() });
    kept.version = 99;
    cache.get("triage", "production", 500)!.channel!.version = 98;
    expect(cache.get("triage", "production", 500)?.channel?.version).toBe(3);
  });
});
