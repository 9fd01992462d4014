import type { z } from "zod";

/** What the cache knows about a (tool, payload shape) pair. */
export type AutoSeqShapeVerdict = "shape_mismatch" | "shape_ok";

interface ToolEntry {
  schema: z.ZodType;
  verdicts: Map<string, AutoSeqShapeVerdict>;
}

const MAX_SHAPES_PER_TOOL = 256;

/**
 * Remembers, per (tool, payload shape), whether the tool's args schema can accept a payload with that key
 * set. Only exact facts are stored: a shape lacks a key the schema's top-level object requires (it then
 * fails whatever the values), or it has them all (values are still validated every time). Entries are
 * dropped when a tool's schema object changes, and each tool keeps at most 256 shapes.
 */
export class AutoSeqCache {
  private readonly tools = new Map<string, ToolEntry>();
  private hitCount = 0;
  private missCount = 0;

  /** Lookups answered from the cache, and lookups that had to inspect the schema. */
  get stats(): { hits: number; misses: number } {
    return { hits: this.hitCount, misses: this.missCount };
  }

  /** The verdict for a tool and a sorted key set, computing and storing it on a miss. */
  getShapeVerdict(input: { tool: string; schema: z.ZodType; keys: readonly string[] }): AutoSeqShapeVerdict {
    let entry = this.tools.get(input.tool);
    if (entry === undefined || entry.schema !== input.schema) {
      entry = { schema: input.schema, verdicts: new Map() };
      this.tools.set(input.tool, entry);
    }
    const shapeKey = JSON.stringify(input.keys);
    const known = entry.verdicts.get(shapeKey);
    if (known !== undefined) {
      this.hitCount += 1;
      return known;
    }
    this.missCount += 1;
    const verdict = getShapeVerdictUncached(input.schema, input.keys);
    if (entry.verdicts.size >= MAX_SHAPES_PER_TOOL) entry.verdicts.clear();
    entry.verdicts.set(shapeKey, verdict);
    return verdict;
  }

  clear(): void {
    this.tools.clear();
  }
}

/**
 * `shape_mismatch` when the schema is a plain zod object with a key that `keys` lacks and that is not
 * optional (zod reports an absent non-optional key whatever the other values): validation must fail.
 */
export function getShapeVerdictUncached(schema: z.ZodType, keys: readonly string[]): AutoSeqShapeVerdict {
  const def = schema.def as { type: string; shape?: Record<string, z.ZodType> };
  if (def.type !== "object" || def.shape === undefined) return "shape_ok";
  const present = new Set(keys);
  for (const [key, fieldSchema] of Object.entries(def.shape)) {
    if (!present.has(key) && fieldSchema._zod.optin === undefined) return "shape_mismatch";
  }
  return "shape_ok";
}
