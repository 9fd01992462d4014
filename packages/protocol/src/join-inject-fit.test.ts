import { describe, expect, it } from "vitest";
import { getDefaultJoinInject, getJoinInjectFit, getUnsuppliedJoinArgs } from "./join-inject-fit.js";

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

describe("getJoinInjectFit", () => {
  it("takes arrays into array arguments and counts into integer or number ones", () => {
    const argsSchema = object({
      results: { type: "array", items: { type: "object" } },
      expect: { type: "integer" },
      ratio: { type: "number" },
      any: {},
    });
    expect(getJoinInjectFit({ argsSchema, arg: "results", source: "$results" })).toEqual({ fit: "declared" });
    expect(getJoinInjectFit({ argsSchema, arg: "expect", source: "$expect" })).toEqual({ fit: "declared" });
    expect(getJoinInjectFit({ argsSchema, arg: "ratio", source: "$failure_count" })).toEqual({
      fit: "declared",
    });
    expect(getJoinInjectFit({ argsSchema, arg: "any", source: "$branches" })).toEqual({ fit: "declared" });
  });

  it("reports a type the source does not deliver, items included", () => {
    const argsSchema = object({
      text: { type: "string" },
      names: { type: "array", items: { type: "string" } },
      results: { type: "array" },
    });
    expect(getJoinInjectFit({ argsSchema, arg: "text", source: "$results" })).toEqual({
      fit: "type_mismatch",
      expected: "string",
      delivered: "an array of records",
    });
    expect(getJoinInjectFit({ argsSchema, arg: "names", source: "$results" })).toMatchObject({
      fit: "type_mismatch",
      expected: "an array of string items",
    });
    expect(getJoinInjectFit({ argsSchema, arg: "results", source: "$expect" })).toMatchObject({
      fit: "type_mismatch",
      delivered: "an integer",
    });
  });

  it("reads unions, nullable types, enums and consts", () => {
    const argsSchema = object({
      maybe: { type: ["array", "null"] },
      either: { anyOf: [{ type: "string" }, { type: "array" }] },
      fixed: { enum: ["a", "b"] },
      three: { const: 3 },
    });
    expect(getJoinInjectFit({ argsSchema, arg: "maybe", source: "$results" }).fit).toBe("declared");
    expect(getJoinInjectFit({ argsSchema, arg: "either", source: "$failures" }).fit).toBe("declared");
    expect(getJoinInjectFit({ argsSchema, arg: "fixed", source: "$expect" }).fit).toBe("type_mismatch");
    expect(getJoinInjectFit({ argsSchema, arg: "three", source: "$expect" }).fit).toBe("declared");
  });

  it("tells a key the schema refuses from one it lets through undeclared", () => {
    const closed = object({ text: { type: "string" } }, { additionalProperties: false });
    const open = object({ text: { type: "string" } });
    const typed = object({}, { additionalProperties: { type: "string" } });
    expect(getJoinInjectFit({ argsSchema: closed, arg: "results", source: "$results" })).toEqual({
      fit: "refused",
    });
    expect(getJoinInjectFit({ argsSchema: open, arg: "results", source: "$results" })).toEqual({
      fit: "undeclared",
    });
    expect(getJoinInjectFit({ argsSchema: typed, arg: "results", source: "$results" }).fit).toBe(
      "type_mismatch",
    );
  });
});

describe("getDefaultJoinInject", () => {
  it("maps the conventional names that fit (seed 004's results and expect)", () => {
    const argsSchema = object({ results: { type: "array" }, expect: { type: "integer" } });
    expect(getDefaultJoinInject(argsSchema)).toEqual({ results: "$results", expect: "$expect" });
  });

  it("puts $results into an array argument of another name, required ones first", () => {
    const argsSchema = object(
      { notes: { type: "array" }, shards: { type: "array", items: { type: "object" } } },
      { required: ["shards"] },
    );
    expect(getDefaultJoinInject(argsSchema)).toEqual({ shards: "$results" });
  });

  it("never names a key the schema refuses or a type that does not fit", () => {
    expect(
      getDefaultJoinInject(object({ text: { type: "string" } }, { additionalProperties: false })),
    ).toEqual({});
    expect(getDefaultJoinInject(object({ results: { type: "string" } }))).toEqual({});
    expect(getDefaultJoinInject(object({ words: { type: "array", items: { type: "string" } } }))).toEqual({});
    expect(getDefaultJoinInject(object({}))).toEqual({});
  });
});

describe("getUnsuppliedJoinArgs", () => {
  it("lists required args neither fixed, injected nor defaulted", () => {
    const argsSchema = object(
      {
        results: { type: "array" },
        topic: { type: "string" },
        style: { type: "string", default: "short" },
        n: {},
      },
      { required: ["results", "topic", "style", "n"] },
    );
    expect(getUnsuppliedJoinArgs({ argsSchema, args: { n: 1 }, inject: { results: "$results" } })).toEqual([
      "topic",
    ]);
  });
});
