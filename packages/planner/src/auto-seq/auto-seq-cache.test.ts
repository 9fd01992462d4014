import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AutoSeqCache, getShapeVerdictUncached } from "./auto-seq-cache.js";

// The cache may only say `shape_mismatch` when validation must fail: check that against zod itself.
const schemas: Record<string, z.ZodType> = {
  required: z.object({ a: z.string() }),
  optional: z.object({ a: z.string().optional() }),
  defaulted: z.object({ a: z.string().default("x") }),
  unknown: z.object({ a: z.unknown() }),
  nullable: z.object({ a: z.string().nullable() }),
  exactOptional: z.object({ a: z.string().exactOptional() }),
  loose: z.looseObject({ a: z.number() }),
  strict: z.strictObject({ a: z.number().optional() }),
  union: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
  piped: z.object({ a: z.string() }).transform((value) => value),
};
const payloads: Record<string, unknown>[] = [{}, { a: "s" }, { a: undefined }, { b: "s" }, { a: 1, b: "s" }];

describe("AutoSeqCache verdicts", () => {
  for (const [name, schema] of Object.entries(schemas)) {
    it(`never claims a mismatch that zod would accept (${name})`, () => {
      for (const payload of payloads) {
        const verdict = getShapeVerdictUncached(schema, Object.keys(payload).sort());
        if (verdict === "shape_mismatch") expect(schema.safeParse(payload).success).toBe(false);
      }
    });
  }

  it("recognises a missing required key", () => {
    expect(getShapeVerdictUncached(schemas["required"]!, [])).toBe("shape_mismatch");
    expect(getShapeVerdictUncached(schemas["optional"]!, [])).toBe("shape_ok");
  });

  it("counts hits and misses and can be cleared", () => {
    const cache = new AutoSeqCache();
    const input = { tool: "t", schema: schemas["required"]!, keys: ["b"] };
    expect(cache.getShapeVerdict(input)).toBe("shape_mismatch");
    expect(cache.getShapeVerdict(input)).toBe("shape_mismatch");
    expect(cache.stats).toEqual({ hits: 1, misses: 1 });
    cache.clear();
    cache.getShapeVerdict(input);
    expect(cache.stats).toEqual({ hits: 1, misses: 2 });
  });
});
