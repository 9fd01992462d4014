import { validateAgentSpec, type JsonSchema, type ParallelGroup } from "@waddle/protocol";
import { describe, expect, it } from "vitest";
import { makeSpec, makeTool } from "../testing/make-spec.js";
import { applySpecChange } from "./apply-spec-change.js";
import {
  getArgsSchemaWithResults,
  getDefaultJoin,
  getRetargetedJoin,
  isMissingResultsArg,
} from "./get-default-join.js";

const group: ParallelGroup = { id: "g", kind: "parallel", name: "G", members: ["alpha", "beta"] };
const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): JsonSchema => ({
  type: "object",
  properties,
  ...extra,
});
const merge = makeTool("merge", {
  argsSchema: schema({ results: { type: "array", items: { type: "object" } }, expect: { type: "integer" } }),
});
/** Takes only `text` (a string), and no other key: nothing the branches produce fits it. */
const summarize = makeTool("summarize", {
  argsSchema: schema({ text: { type: "string" } }, { required: ["text"], additionalProperties: false }),
});

describe("getDefaultJoin", () => {
  it("injects only what the join tool's args schema takes", () => {
    const spec = makeSpec({ groups: [group], tools: [makeTool("alpha"), makeTool("beta"), merge] });
    expect(getDefaultJoin(spec, group)).toEqual({
      tool: "merge",
      args: {},
      inject: { results: "$results", expect: "$expect" },
    });
  });

  it("prefers a tool that can take the results over the first one", () => {
    const spec = makeSpec({
      groups: [group],
      tools: [makeTool("alpha"), makeTool("beta"), summarize, merge],
    });
    expect(getDefaultJoin(spec, group).tool).toBe("merge");
  });

  it("injects nothing rather than a key the tool refuses, and the spec still validates", () => {
    const spec = makeSpec({ groups: [group], tools: [makeTool("alpha"), makeTool("beta"), summarize] });
    const join = getDefaultJoin(spec, group);
    expect(join).toEqual({ tool: "summarize", args: {}, inject: {} });
    const next = applySpecChange(spec, { type: "updateGroup", id: "g", patch: { join } });
    const result = validateAgentSpec(next);
    expect(result.ok).toBe(true);
    expect(result.issues.map((issue) => issue.code)).toEqual(["join_arg_unsupplied"]);
    expect(isMissingResultsArg(summarize)).toBe(true);
    expect(isMissingResultsArg(merge)).toBe(false);
  });

  it("has no tool to pick when every tool is a member", () => {
    const spec = makeSpec({ groups: [{ ...group, members: ["alpha", "beta", "gamma"] }] });
    expect(getDefaultJoin(spec, spec.groups[0]!)).toEqual({ tool: "", args: {}, inject: {} });
  });
});

describe("getRetargetedJoin", () => {
  const spec = makeSpec({ tools: [makeTool("alpha"), makeTool("beta"), merge, summarize] });

  it("drops injections the new tool does not take and starts from its own default", () => {
    const join = { tool: "merge", args: { note: 1 }, inject: { results: "$results", expect: "$expect" } };
    expect(getRetargetedJoin(spec, { join, tool: "summarize" })).toEqual({
      tool: "summarize",
      args: { note: 1 },
      inject: {},
    });
    expect(getRetargetedJoin(spec, { join: { ...join, inject: {} }, tool: "merge" }).inject).toEqual({
      results: "$results",
      expect: "$expect",
    });
  });

  it("keeps the injections the new tool takes", () => {
    const join = { tool: "summarize", args: {}, inject: { results: "$results" } };
    expect(getRetargetedJoin(spec, { join, tool: "merge" }).inject).toEqual({ results: "$results" });
  });
});

describe("getArgsSchemaWithResults", () => {
  it("adds an array argument that takes $results, under a free name", () => {
    const { argsSchema, arg } = getArgsSchemaWithResults(summarize.argsSchema);
    expect(arg).toBe("results");
    expect(argsSchema.properties).toMatchObject({ text: { type: "string" }, results: { type: "array" } });
    expect(argsSchema.additionalProperties).toBe(false);
    const taken = getArgsSchemaWithResults(schema({ results: { type: "string" } }));
    expect(taken.arg).toBe("results_2");
    const tool = makeTool("summarize", { argsSchema });
    expect(isMissingResultsArg(tool)).toBe(false);
  });
});
