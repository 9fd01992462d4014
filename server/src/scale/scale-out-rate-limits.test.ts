import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMissingPartsReason } from "../testing/real-parts.js";
import { startTestCluster, type ClusterInstance, type TestCluster } from "../testing/start-test-cluster.js";

const skip = getMissingPartsReason(["postgres", "redis"]);

/** `WADDLE_TEST_SCALE_OUT=only npx vitest run server/src/scale/scale-out-rate-limits.test.ts` */
describe.skipIf(skip)("rate limits in queue mode: three instances draw from one bucket in Redis", () => {
  let cluster: TestCluster;
  const instances: ClusterInstance[] = [];
  beforeAll(async () => {
    cluster = await startTestCluster({ WADDLE_RATE_LIMIT: "4/h" });
    // One after another: the first loads the example agents into the shared database.
    for (let index = 0; index < 3; index += 1) instances.push(await cluster.start("all"));
  }, 120_000);
  afterAll(async () => {
    await cluster?.destroy();
  });

  it("accepts 4 runs in all, whichever instance is asked, and answers 429 with Retry-After on each after", async () => {
    const statuses: number[][] = [[], [], []];
    for (let request = 0; request < 9; request += 1) {
      const index = request % 3;
      const answer = await fetch(`${instances[index]!.url}/api/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ agentId: "support-triage", query: `question ${request}` }),
      });
      statuses[index]!.push(answer.status);
      if (answer.status === 429) {
        expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(3000);
        expect(((await answer.json()) as { code: string }).code).toBe("rate_limited");
      } else {
        await answer.body?.cancel();
      }
    }
    // Each instance alone would have accepted all three it was asked (3 < 4): together, only 4 of 9.
    expect(statuses.flat().filter((status) => status === 202)).toHaveLength(4);
    expect(statuses.flat().filter((status) => status === 429)).toHaveLength(5);
    for (const served of statuses) expect(served.at(-1)).toBe(429);
  });
});
