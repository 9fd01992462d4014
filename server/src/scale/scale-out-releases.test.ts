import { AgentSpec } from "@waddle/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMissingPartsReason } from "../testing/real-parts.js";
import { startTestCluster, type ClusterInstance, type TestCluster } from "../testing/start-test-cluster.js";

const skip = getMissingPartsReason(["postgres", "redis"]);

/**
 * Issue 32: a release on one instance is served by every other within a second. An instance answers serving
 * requests from channel reads at most SERVING_CHANNEL_MAX_AGE_MS old, so a request may still get the older
 * version only when it began less than a second after the release was answered.
 */
const WITHIN_MS = 1_000;

/** `WADDLE_TEST_SCALE_OUT=only npx vitest run server/src/scale/scale-out-releases.test.ts` */
describe.skipIf(skip)("releases in queue mode: a release on one instance is served by another", () => {
  let cluster: TestCluster;
  let first: ClusterInstance;
  let second: ClusterInstance;
  beforeAll(async () => {
    cluster = await startTestCluster();
    // One after the other: the first applies the migrations.
    first = await cluster.start("all");
    second = await cluster.start("all");
  }, 120_000);
  afterAll(async () => {
    await cluster?.destroy();
  });

  /**
   * Starts runs on `instance` naming no version until one runs `version`; fails when a run of another
   * version began a second or more after `since` (when the change was answered).
   */
  async function waitForServed(instance: ClusterInstance, agentId: string, version: number, since: number) {
    for (let attempt = 0; ; attempt += 1) {
      const askedAt = Date.now();
      const started = await instance.request("/api/runs", { json: { agentId, query: `ask ${attempt}` } });
      expect(started.status).toBe(202);
      const run = await cluster.getRun(started.body.runId as string);
      if (run.agentVersion === version) return run;
      expect(
        askedAt - since,
        `${instance.url} served ${agentId} v${run.agentVersion}, not v${version}, ${askedAt - since} ms after the release`,
      ).toBeLessThan(WITHIN_MS);
    }
  }

  it("runs the version released on A when B is asked, on /api/runs and /v1, and follows the next release", async () => {
    const spec = AgentSpec.parse({
      version: 1,
      id: "released-across",
      name: "Released across",
      tools: [{ name: "lookup", desc: "Looks up", impl: { kind: "mock", output: { ok: true } } }],
    });
    expect((await first.request("/api/agents", { json: spec })).status).toBe(201);
    for (const baseVersion of [1, 2]) {
      const json = { spec: { ...spec, name: `Released across v${baseVersion + 1}` }, baseVersion };
      expect((await first.request(`/api/agents/${spec.id}`, { method: "PUT", json })).status).toBe(200);
    }
    // Before any release B serves the latest save; after one on A, B serves what A released.
    expect(await waitForServed(second, spec.id, 3, Date.now())).not.toHaveProperty("channel");
    const released = await first.request(`/api/agents/${spec.id}/releases`, {
      json: { version: 2, channel: "production" },
    });
    expect(released.status, JSON.stringify(released.body)).toBe(201);
    const releasedAt = Date.now();
    expect(await waitForServed(second, spec.id, 2, releasedAt)).toMatchObject({ channel: "production" });

    const completion = await second.request("/v1/chat/completions", {
      json: { model: spec.id, messages: [{ role: "user", content: "Look it up" }] },
    });
    expect(completion.status, JSON.stringify(completion.body)).toBe(200);
    const served = await cluster.getRun(completion.body.waddle.runId as string);
    expect(served).toMatchObject({ agentVersion: 2, channel: "production" });

    const moved = await first.request(`/api/agents/${spec.id}/releases`, {
      json: { version: 1, channel: "production", expectedVersion: 2 },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(201);
    const movedAt = Date.now();
    expect(await waitForServed(second, spec.id, 1, movedAt)).toMatchObject({ channel: "production" });
  }, 120_000);
});
