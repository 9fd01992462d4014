import { describe, expect, it } from "vitest";
import { measureInterleaved } from "./measure-interleaved.js";

describe("measureInterleaved", () => {
  it("warms each contender up, then samples every one once per round in a rotating order", async () => {
    const order: string[] = [];
    let measuring = false;
    const contender = (name: string) => ({
      name,
      units: 4,
      run: async () => {
        if (measuring) order.push(name);
      },
    });
    const contenders = [contender("a"), contender("b"), contender("c")];
    const warmed = measureInterleaved({
      contenders,
      rounds: 3,
      warmupMs: 0,
      sampleMs: 0,
      beforeSample: () => {
        measuring = true;
        order.push("|");
      },
    });
    const results = await warmed;
    // sampleMs 0 makes each sample a single run.
    expect(order.join("")).toBe("|a|b|c|b|c|a|c|a|b");
    expect(results.map((result) => [result.name, result.perUnitUs.length, result.runsPerSample])).toEqual([
      ["a", 3, 1],
      ["b", 3, 1],
      ["c", 3, 1],
    ]);
    for (const result of results)
      for (const value of result.perUnitUs) expect(value).toBeGreaterThanOrEqual(0);
  });
});
