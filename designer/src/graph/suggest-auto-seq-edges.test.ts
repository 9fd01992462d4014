import { describe, expect, it } from "vitest";
import { makeSpec, makeTool } from "../testing/make-spec.js";
import { getObjectMatch, isSchemaCompatible, suggestAutoSeqEdges } from "./suggest-auto-seq-edges.js";

const object = (
  properties: Record<string, unknown>,
  required: string[] = Object.keys(properties),
  extra = {},
) => ({
  type: "object",
  properties,
  required,
  ...extra,
});

describe("getObjectMatch", () => {
  it("matches when every required arg is produced with a compatible type", () => {
    const out = object({ docs: { type: "array", items: { type: "string" } }, count: { type: "integer" } });
    const args = object({ docs: { type: "array", items: { type: "string" } }, count: { type: "number" } });
    expect(getObjectMatch(out, args)).toEqual(["docs", "count"]);
  });

  it("rejects a missing required arg or a type that does not fit", () => {
    expect(
      getObjectMatch(
        object({ a: { type: "string" } }),
        object({ a: { type: "string" }, b: { type: "string" } }),
      ),
    ).toBeNull();
    expect(getObjectMatch(object({ a: { type: "number" } }), object({ a: { type: "integer" } }))).toBeNull();
    expect(
      getObjectMatch(
        object({ a: { type: "array", items: { type: "number" } } }),
        object({ a: { type: "array", items: { type: "string" } } }),
      ),
    ).toBeNull();
  });

  it("ignores optional args but checks the type of any it gets", () => {
    expect(
      getObjectMatch(
        object({ a: { type: "string" } }),
        object({ a: { type: "string" }, k: { type: "integer" } }, ["a"]),
      ),
    ).toEqual(["a"]);
    expect(
      getObjectMatch(
        object({ a: { type: "string" }, k: { type: "string" } }),
        object({ a: { type: "string" }, k: { type: "integer" } }, ["a"]),
      ),
    ).toBeNull();
  });

  it("respects additionalProperties: false and enums", () => {
    const strict = object({ a: { type: "string" } }, ["a"], { additionalProperties: false });
    expect(getObjectMatch(object({ a: { type: "string" }, extra: { type: "string" } }), strict)).toBeNull();
    const route = object({ route: { type: "string", enum: ["docs", "web"] } });
    expect(getObjectMatch(object({ route: { type: "string" } }), route)).toBeNull();
    expect(getObjectMatch(object({ route: { type: "string", enum: ["docs"] } }), route)).toEqual(["route"]);
  });

  it("checks nested objects' required properties", () => {
    const args = object({ user: object({ id: { type: "string" } }) });
    expect(isSchemaCompatible(object({ id: { type: "string" } }), object({ id: { type: "string" } }))).toBe(
      true,
    );
    expect(getObjectMatch(object({ user: object({ id: { type: "string" } }) }), args)).toEqual(["user"]);
    expect(getObjectMatch(object({ user: object({ name: { type: "string" } }) }), args)).toBeNull();
  });
});

describe("suggestAutoSeqEdges", () => {
  it("suggests edges from producers to consumers, skipping existing auto-seq edges", () => {
    const spec = makeSpec({
      tools: [
        makeTool("search", {
          argsSchema: object({ query: { type: "string" } }),
          outSchema: object({ docs: { type: "array", items: { type: "string" } } }),
        }),
        makeTool("summarize", {
          argsSchema: object({ docs: { type: "array", items: { type: "string" } } }),
          outSchema: object({ summary: { type: "string" } }),
        }),
        makeTool("rank", {
          argsSchema: object({ docs: { type: "array" } }),
          outSchema: object({ top: { type: "string" } }),
        }),
        makeTool("free", { argsSchema: object({}), outSchema: object({}) }),
      ],
      edges: [{ id: "s-r", kind: "auto_seq", source: "search", target: "rank" }],
    });
    expect(suggestAutoSeqEdges(spec)).toEqual([{ source: "search", target: "summarize", matched: ["docs"] }]);
  });

  it("leaves out shortcuts past a chain and loops back into it (one state type through a pipeline)", () => {
    const state = object({ query: { type: "string" }, stage: { type: "string" } });
    const stage = (name: string) => makeTool(name, { argsSchema: state, outSchema: state });
    const spec = makeSpec({
      tools: [stage("init"), stage("parse"), stage("extract"), stage("summarize"), stage("audit")],
      edges: [
        { id: "e1", kind: "auto_seq", source: "init", target: "parse" },
        { id: "e2", kind: "auto_seq", source: "parse", target: "extract" },
        { id: "e3", kind: "auto_seq", source: "extract", target: "summarize" },
      ],
    });
    const pairs = suggestAutoSeqEdges(spec).map((edge) => `${edge.source}->${edge.target}`);
    // the chain's tools only pair with the tool outside it, both ways
    expect(pairs.sort()).toEqual(
      ["init", "parse", "extract", "summarize"]
        .flatMap((name) => [`${name}->audit`, `audit->${name}`])
        .sort(),
    );
    // a big canvas asks about the selection only: the same answer for its pairs
    const involving = suggestAutoSeqEdges(spec, { involving: new Set(["init"]) });
    expect(involving.map((edge) => `${edge.source}->${edge.target}`).sort()).toEqual([
      "audit->init",
      "init->audit",
    ]);
  });

  it("still suggests an auto-seq edge where only an order edge exists", () => {
    const spec = makeSpec({ edges: [{ id: "a-b", kind: "order", source: "alpha", target: "beta" }] });
    const pairs = suggestAutoSeqEdges(spec).map((edge) => `${edge.source}->${edge.target}`);
    expect(pairs).toContain("alpha->beta");
    expect(pairs).toHaveLength(6);
  });
});

describe("getVisibleSuggestions", () => {
  it("shows all suggestions on a small agent, only the selection's on a busy one", async () => {
    const { getVisibleSuggestions } = await import("./get-validation.js");
    const small = makeSpec();
    expect(getVisibleSuggestions(small, { nodes: [], edges: [] })).toHaveLength(6);
    const big = makeSpec({ tools: Array.from({ length: 50 }, (_, index) => makeTool(`tool_${index}`)) });
    expect(getVisibleSuggestions(big, { nodes: [], edges: [] })).toEqual([]);
    const visible = getVisibleSuggestions(big, { nodes: ["tool_7"], edges: [] });
    expect(visible).toHaveLength(16);
    expect(visible.every((edge) => edge.source === "tool_7" || edge.target === "tool_7")).toBe(true);
  });
});
