import { defineTool } from "@waddle/planner";
import { z } from "zod";

type Segment = string | number | "*";

/** Thrown for a path the extractor cannot read. */
export class JsonPathError extends Error {
  readonly code = "invalid_json_path" as const;
}

/** Parses `$.items[0].name`, `items[*].id` or `a["b c"]` into segments (`*` is a wildcard). */
export function parseExtractPath(path: string): Segment[] {
  const segments: Segment[] = [];
  const body = path.trim().replace(/^\$/, "");
  const pattern = /\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[\*\]|\.\*|\[("(?:[^"\\]|\\.)*"|'[^']*')\]/gy;
  let consumed = 0;
  for (const match of body.matchAll(pattern)) {
    consumed = (match.index ?? 0) + match[0].length;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else if (match[3] !== undefined)
      segments.push(match[3].startsWith("'") ? match[3].slice(1, -1) : (JSON.parse(match[3]) as string));
    else segments.push("*");
  }
  if (consumed !== body.length) {
    throw new JsonPathError(
      `Cannot read "${path}" after position ${consumed + 1}: use $.a.b[0], a[*].b or a["key"].`,
    );
  }
  return segments;
}

/** Every value a path reaches; own properties only, so `__proto__` and friends never resolve. */
export function extractJsonPath(root: unknown, path: string): unknown[] {
  let current: unknown[] = [root];
  for (const segment of parseExtractPath(path)) {
    current = current.flatMap((value): unknown[] => {
      if (value === null || typeof value !== "object") return [];
      if (segment === "*") return Array.isArray(value) ? value : Object.values(value);
      if (!Object.prototype.hasOwnProperty.call(value, segment)) return [];
      return [(value as Record<string | number, unknown>)[segment]];
    });
  }
  return current;
}

/** Pulls values out of a JSON document, so that the model does not copy deep fields by hand. */
export const jsonExtract = defineTool({
  name: "json_extract",
  desc: 'Extract values from JSON (an object, or JSON text) with a path such as $.items[0].name, items[*].price or a["key with spaces"].',
  args: z.object({
    json: z.unknown().describe("the JSON value, or a string of JSON text"),
    path: z.string().min(1).max(500),
  }),
  out: z.object({ found: z.boolean(), count: z.int(), value: z.unknown(), values: z.array(z.unknown()) }),
  sideEffects: "pure",
  tags: ["data"],
  latencyHintMs: 1,
  run: ({ json, path }) => {
    let document = json;
    if (typeof json === "string") {
      try {
        document = JSON.parse(json) as unknown;
      } catch {
        document = json;
      }
    }
    const values = extractJsonPath(document, path);
    const wildcard = parseExtractPath(path).includes("*");
    return {
      found: values.length > 0,
      count: values.length,
      value: wildcard ? values : (values[0] ?? null),
      values,
    };
  },
});
