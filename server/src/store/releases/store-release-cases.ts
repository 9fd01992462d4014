import assert from "node:assert/strict";
import { expectStoreError, withStore, type StoreConformanceCase } from "../store-claim-cases.js";
import { isStoreError } from "../waddle-store.js";
import type { StoredRelease } from "./release-store.js";

const release = (id: string, channel: string, version: number, extra: Partial<StoredRelease> = {}) =>
  ({
    id,
    agentId: "triage",
    channel,
    version,
    previousVersion: null,
    previousReleaseId: null,
    kind: "release",
    releasedAt: `2026-01-0${id.slice(-1)}T00:00:00.000Z`,
    releasedBy: "ops",
    notes: null,
    testRunId: null,
    overrideReason: null,
    shadowReportId: null,
    ...extra,
  }) satisfies StoredRelease;

/** Channels point at their latest release; a release made under a stale expectation changes nothing. */
export const storeReleaseCases: readonly StoreConformanceCase[] = [
  {
    name: "releases: channels point at their latest release, history newest first, per agent and channel",
    run: (make) =>
      withStore(make, async (store) => {
        const releases = store.releases;
        assert.deepEqual(await releases.listChannels("triage"), []);
        await releases.create(release("rel_1", "staging", 1, { notes: "first", testRunId: "tr_1" }));
        await releases.create(release("rel_2", "production", 1), { expectedReleaseId: null });
        await releases.create(
          release("rel_3", "staging", 2, {
            previousVersion: 1,
            previousReleaseId: "rel_1",
            overrideReason: "hotfix",
            shadowReportId: "shr_1",
          }),
          { expectedReleaseId: "rel_1" },
        );
        await releases.create({ ...release("rel_4", "production", 9), agentId: "other" });
        const channels = await releases.listChannels("triage");
        assert.deepEqual(
          channels.map((channel) => [channel.name, channel.version, channel.releaseId]),
          [
            ["production", 1, "rel_2"],
            ["staging", 2, "rel_3"],
          ],
        );
        assert.equal(channels[1]!.overrideReason, "hotfix");
        assert.equal(channels[1]!.shadowReportId, "shr_1");
        assert.equal(channels[0]!.shadowReportId, null);
        assert.equal(await releases.getChannel("triage", "nope"), undefined);
        assert.deepEqual(
          (await releases.list("triage")).map((entry) => entry.id),
          ["rel_3", "rel_2", "rel_1"],
        );
        assert.deepEqual(await releases.list("triage", { channel: "staging", limit: 1 }), [
          release("rel_3", "staging", 2, {
            previousVersion: 1,
            previousReleaseId: "rel_1",
            overrideReason: "hotfix",
            shadowReportId: "shr_1",
          }),
        ]);
        assert.deepEqual(
          await releases.get("rel_1"),
          release("rel_1", "staging", 1, { notes: "first", testRunId: "tr_1" }),
        );
        await releases.deleteAgent("triage");
        assert.deepEqual(await releases.listChannels("triage"), []);
        assert.deepEqual(await releases.list("triage"), []);
        assert.equal((await releases.listChannels("other")).length, 1);
      }),
  },
  {
    name: "releases: a stale expectation is refused with the channel as it now is, and writes nothing",
    run: (make) =>
      withStore(make, async (store) => {
        const releases = store.releases;
        await releases.create(release("rel_1", "production", 1));
        const stale = await releases
          .create(release("rel_2", "production", 2), { expectedReleaseId: null })
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        assert.ok(isStoreError(stale) && stale.code === "conflict");
        assert.equal((stale.details?.["channel"] as { version: number }).version, 1);
        await expectStoreError(
          releases.create(release("rel_3", "production", 3), { expectedReleaseId: "rel_0" }),
          "conflict",
        );
        const racing = await Promise.allSettled([
          releases.create(release("rel_4", "production", 4), { expectedReleaseId: "rel_1" }),
          releases.create(release("rel_5", "production", 5), { expectedReleaseId: "rel_1" }),
        ]);
        assert.equal(racing.filter((result) => result.status === "fulfilled").length, 1);
        assert.deepEqual((await releases.list("triage")).map((entry) => entry.version).slice(1), [1]);
        assert.equal(await releases.get("rel_2"), undefined);
      }),
  },
];
