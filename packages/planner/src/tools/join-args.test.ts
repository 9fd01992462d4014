import { describe, expect, it } from "vitest";
import { buildJoinArgs, getInjectedValue } from "./join-args.js";
import type { PlannerViewBranch } from "../run/planner-view.js";

const failure = { node: "b", args: { id: 2 }, error_code: "timeout", message: "slow" };
const branches: PlannerViewBranch[] = [
  { node: "a", args: { id: 1 }, observation: { v: 1 } },
  { node: "b", args: { id: 2 }, failure },
  { node: "c", args: { id: 3 }, observation: { v: 3 } },
];
const schema = (...fields: string[]) => ({
  type: "object",
  properties: Object.fromEntries(fields.map((field) => [field, {}])),
});

describe("getInjectedValue", () => {
  it("computes each of the six sources in plan order", () => {
    expect(getInjectedValue("$results", branches)).toEqual([{ v: 1 }, { v: 3 }]);
    expect(getInjectedValue("$branches", branches)).toEqual(branches);
    expect(getInjectedValue("$failures", branches)).toEqual([{ node: "b", args: { id: 2 }, error: failure }]);
    expect(getInjectedValue("$success_count", branches)).toBe(2);
    expect(getInjectedValue("$failure_count", branches)).toBe(1);
    expect(getInjectedValue("$expect", branches)).toBe(3);
  });
});

describe("buildJoinArgs", () => {
  it("maps explicit inject entries over the join's own args", () => {
    const result = buildJoinArgs({
      args: { style: "short", results: "overridden" },
      inject: { results: "$results", total: "$expect" },
      branches,
      argsSchema: schema("results"),
    });
    expect(result).toEqual({
      args: { style: "short", results: [{ v: 1 }, { v: 3 }], total: 3 },
      unknownSources: [],
      implicit: false,
    });
  });

  it("reports unknown sources instead of guessing", () => {
    const result = buildJoinArgs({
      args: {},
      inject: { results: "$all", n: "$expect" },
      branches,
      argsSchema: schema(),
    });
    expect(result.unknownSources).toEqual(["results: $all"]);
    expect(result.args).toEqual({ n: 3 });
  });

  it("fills conventional fields the join declares when inject is absent (deprecated implicit injection)", () => {
    const result = buildJoinArgs({
      args: { expect: 9 },
      branches,
      argsSchema: schema("results", "expect", "failure_count", "other"),
    });
    expect(result).toEqual({
      args: { expect: 9, results: [{ v: 1 }, { v: 3 }], failure_count: 1 },
      unknownSources: [],
      implicit: true,
    });
    expect(buildJoinArgs({ args: {}, branches, argsSchema: {} }).implicit).toBe(false);
  });
});
