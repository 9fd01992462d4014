import { describe, expect, it } from "vitest";
import type { ToolSpecInput } from "./agent-spec.js";
import { makeTestSpec } from "./test-specs.js";
import { validateAgentSpec } from "./validate-agent-spec.js";

const queryArgs = {
  type: "object",
  properties: { query: { type: "string" } },
  required: ["query"],
};

/** The issues of a spec holding one tool (besides the test spec's own). */
function issuesOf(tool: Partial<ToolSpecInput> & Pick<ToolSpecInput, "impl">) {
  const spec = makeTestSpec();
  const added: ToolSpecInput = { name: "probe", desc: "the tool under test", argsSchema: queryArgs, ...tool };
  return validateAgentSpec({ ...spec, tools: [...(spec.tools ?? []), added] }).issues.filter((issue) =>
    issue.path.startsWith("$.tools[4]"),
  );
}

describe("template checks, for every tool kind", () => {
  it("http: a {placeholder} of the URL naming no argument is an error offering to add it", () => {
    const issues = issuesOf({ impl: { kind: "http", url: "https://api.example.com/weather/{city}" } });
    expect(issues).toContainEqual(
      expect.objectContaining({
        severity: "error",
        code: "unknown_template_arg",
        path: "$.tools[4].impl.url",
        fix: expect.objectContaining({ action: "add_argument", tool: "probe", name: "city" }),
      }),
    );
    expect(issues.find((issue) => issue.code === "unknown_template_arg")?.message).toMatch(
      /\{city\} names no argument of probe \(its arguments are query\)/,
    );
  });

  it("http: {{args.x}} is the wrong syntax even for a real argument, in the query and in body templates too", () => {
    const issues = issuesOf({
      impl: {
        kind: "http",
        method: "POST",
        url: "https://api.example.com/search",
        query: { q: "{{args.query}}" },
        body: { filter: { where: "{place}" } },
      },
    });
    expect(issues.map((issue) => [issue.code, issue.path])).toEqual([
      ["unknown_template_arg", "$.tools[4].impl.query.q"],
      ["unknown_template_arg", "$.tools[4].impl.body.filter.where"],
    ]);
    expect(issues[0]?.message).toMatch(/write \{query\}/);
    expect(issues[0]?.fix).toBeUndefined();
  });

  it("http: a placeholder in a header is never filled, and a required arg nothing sends is a warning", () => {
    const issues = issuesOf({
      impl: { kind: "http", url: "https://api.example.com/now", headers: { "x-query": "{query}" } },
    });
    expect(issues.map((issue) => [issue.severity, issue.code])).toEqual([
      ["error", "unfilled_template"],
      ["warning", "unused_required_arg"],
    ]);
  });

  it("http: a POST with the args as its JSON body sends every argument: no unused warning", () => {
    expect(issuesOf({ impl: { kind: "http", method: "POST", url: "https://api.example.com/q" } })).toEqual(
      [],
    );
    expect(issuesOf({ impl: { kind: "http", url: "https://api.example.com/q?x={query}" } })).toEqual([]);
  });

  it("llm: {{args.x}} naming no argument is an error offering to add it", () => {
    const issues = issuesOf({
      argsSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      impl: { kind: "llm", prompt: "Summarize {{args.query}} for {{query}}" },
    });
    // the unused "text" is a warning at the same path: the error there says enough
    expect(issues.map((issue) => [issue.severity, issue.code])).toEqual([["error", "unknown_template_arg"]]);
    expect(issues[0]?.fix).toMatchObject({ action: "add_argument", name: "query" });
  });

  it("llm: an unused required argument and a lone {arg} are warnings; a root the scope lacks an error", () => {
    const warnings = issuesOf({ impl: { kind: "llm", prompt: "Answer {query} now" } });
    expect(warnings.map((issue) => [issue.severity, issue.code])).toEqual([
      ["warning", "unfilled_template"],
      ["warning", "unused_required_arg"],
    ]);
    const issues = issuesOf({ impl: { kind: "llm", prompt: "Answer {{args.query}} using {{input}}" } });
    expect(issues.map((issue) => [issue.severity, issue.code])).toEqual([["error", "unknown_template_arg"]]);
    expect(issues[0]?.message).toMatch(/\{\{input\}\} reads nothing/);
    expect(
      issuesOf({
        impl: { kind: "llm", prompt: "Say {{args.query}} ({{last}}, {{steps.alpha.text}}, {{call}})" },
      }),
    ).toEqual([]);
  });

  it("mock: an output reading no argument is a warning (it renders null, it does not fail)", () => {
    const issues = issuesOf({
      impl: { kind: "mock", output: { text: "{{args.city}}", list: ["{{args.query}}"] } },
    });
    expect(issues).toEqual([
      expect.objectContaining({
        severity: "warning",
        code: "unknown_template_arg",
        path: "$.tools[4].impl.output.text",
      }),
    ]);
  });

  it("module, agent and mcp tools have no templates: nothing to report", () => {
    expect(issuesOf({ impl: { kind: "module", ref: "search" } })).toEqual([]);
    expect(issuesOf({ impl: { kind: "agent", agentId: "other" } })).toEqual([]);
    expect(issuesOf({ impl: { kind: "mcp", server: "files", tool: "read_file" } })).toEqual([]);
  });

  it("skips a tool whose args schema declares no properties (nothing to check against)", () => {
    expect(
      issuesOf({ argsSchema: { type: "object" }, impl: { kind: "llm", prompt: "{{args.anything}}" } }),
    ).toEqual([]);
  });
});

describe("auto-seq edges: can the source's output fill the target?", () => {
  const textSchema = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
  const withEdge = (patch: Record<string, Partial<ToolSpecInput>>) => {
    const spec = makeTestSpec({
      planner: { autoSeq: { enabled: true, execute: false, readOnlyOnly: true } },
      edges: [{ id: "e1", kind: "auto_seq", source: "alpha", target: "beta" }],
    });
    const tools = (spec.tools ?? []).map((tool) => ({ ...tool, autoSeq: true, ...patch[tool.name] }));
    return validateAgentSpec({ ...spec, tools }).issues;
  };

  it("accepts a source whose output holds the target's required args", () => {
    expect(withEdge({ beta: { argsSchema: textSchema } })).toEqual([]);
  });

  it("makes an edge from a tool with no out schema an error, offering to remove it", () => {
    const issues = withEdge({ alpha: { outSchema: { type: "object", properties: {} } } });
    expect(issues).toEqual([
      expect.objectContaining({
        severity: "error",
        code: "auto_seq_without_out_schema",
        path: "$.edges[0]",
        target: { kind: "edge", id: "e1" },
        fix: { action: "remove_edge", label: "Remove the edge", edgeId: "e1" },
      }),
    ]);
  });

  it("makes a required arg the output lacks, or has with another type, an error", () => {
    const argsSchema = {
      type: "object",
      properties: { text: { type: "integer" }, topic: { type: "string" } },
      required: ["text", "topic"],
    };
    const issues = withEdge({ beta: { argsSchema, impl: { kind: "mock", output: { text: "x" } } } });
    expect(issues.map((issue) => issue.code)).toEqual(["auto_seq_args_unfilled"]);
    expect(issues[0]?.message).toMatch(/"text" \(beta wants integer, alpha gives string\), "topic"/);
  });

  it("trusts module and mcp tools whose schemas come from elsewhere", () => {
    const empty = { type: "object", properties: {} };
    expect(withEdge({ alpha: { outSchema: empty, impl: { kind: "module", ref: "alpha" } } })).toEqual([]);
    expect(
      withEdge({ alpha: { outSchema: empty, impl: { kind: "mcp", server: "files", tool: "read" } } }),
    ).toEqual([]);
  });
});
