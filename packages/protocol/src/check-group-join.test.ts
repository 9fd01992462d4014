import { describe, expect, it } from "vitest";
import type { AgentSpecInput, ToolSpecInput } from "./agent-spec.js";
import { makeTestSpec } from "./test-specs.js";
import { validateAgentSpec } from "./validate-agent-spec.js";

const base = makeTestSpec();

/** The test spec with join_all's args schema replaced, joining a group of alpha and beta. */
function withJoin(argsSchema: Record<string, unknown>, join: Record<string, unknown>): AgentSpecInput {
  const tools = (base.tools ?? []).map((tool): ToolSpecInput =>
    // the mock's output reads no argument, so that only the join is checked here
    tool.name === "join_all"
      ? { ...tool, argsSchema, impl: { kind: "mock", output: { text: "joined" } } }
      : tool,
  );
  const group = { id: "g", kind: "parallel" as const, name: "G", members: ["alpha", "beta"] };
  return { ...base, tools, groups: [{ ...group, join: { tool: "join_all", ...join } }] };
}

const closedText = {
  type: "object",
  properties: { text: { type: "string" } },
  required: ["text"],
  additionalProperties: false,
};

describe("validateAgentSpec: a group's join against its tool's args schema", () => {
  it("makes an injection the tool refuses an error at the injection's path, saying what to fix", () => {
    const result = validateAgentSpec(withJoin(closedText, { inject: { results: "$results" } }));
    expect(result.ok).toBe(false);
    const issue = result.issues.find((candidate) => candidate.code === "join_arg_refused");
    expect(issue).toMatchObject({
      severity: "error",
      path: "$.groups[0].join.inject.results",
      target: { kind: "group", id: "g" },
    });
    expect(issue?.message).toMatch(/join_all does not take an argument "results"/);
    expect(issue?.message).toMatch(/add an argument that takes an array of records/);
  });

  it("makes a type the source does not deliver an error, naming an argument that fits", () => {
    const argsSchema = {
      type: "object",
      properties: { text: { type: "string" }, parts: { type: "array", items: { type: "object" } } },
    };
    const result = validateAgentSpec(
      withJoin(argsSchema, { inject: { text: "$results", parts: "$expect" } }),
    );
    expect(result.ok).toBe(false);
    const mismatches = result.issues.filter((issue) => issue.code === "join_arg_type_mismatch");
    expect(mismatches.map((issue) => [issue.path, issue.severity])).toEqual([
      ["$.groups[0].join.inject.text", "error"],
      ["$.groups[0].join.inject.parts", "error"],
    ]);
    expect(mismatches[0]?.message).toMatch(/"text" of join_all takes string, but \$results is an array/);
    expect(mismatches[0]?.message).toMatch(/inject \$results into "parts" instead/);
  });

  it("warns about an undeclared argument the schema lets through", () => {
    const result = validateAgentSpec(
      withJoin({ type: "object", properties: {} }, { inject: { results: "$results" } }),
    );
    expect(result.ok).toBe(true);
    expect(result.issues).toEqual([
      expect.objectContaining({
        code: "unknown_join_arg",
        severity: "warning",
        path: "$.groups[0].join.inject.results",
      }),
    ]);
  });

  it("warns when a required argument of the join tool is supplied by nothing", () => {
    const result = validateAgentSpec(withJoin(closedText, { inject: {} }));
    expect(result.ok).toBe(true);
    expect(result.issues).toEqual([
      expect.objectContaining({
        code: "join_arg_unsupplied",
        severity: "warning",
        path: "$.groups[0].join.inject",
      }),
    ]);
    expect(validateAgentSpec(withJoin(closedText, { args: { text: "x" } })).issues).toEqual([]);
  });

  it("accepts injections that fit, as the seed's own example does", () => {
    const argsSchema = {
      type: "object",
      properties: { results: { type: "array", items: { type: "object" } }, expect: { type: "integer" } },
      required: ["results"],
      additionalProperties: false,
    };
    const result = validateAgentSpec(
      withJoin(argsSchema, { inject: { results: "$results", expect: "$expect" } }),
    );
    expect(result.issues).toEqual([]);
  });

  it("still reports a source outside the six when the join tool does not exist", () => {
    const spec = withJoin(closedText, { inject: { text: "$everything" } });
    const groups = (spec.groups ?? []).map((group) => ({
      ...group,
      join: { ...group.join!, tool: "ghost" },
    }));
    const codes = validateAgentSpec({ ...spec, groups }).issues.map((issue) => issue.code);
    expect(codes.sort()).toEqual(["invalid_inject_source", "unknown_tool"]);
  });
});
