import { describe, expect, it } from "vitest";
import { AgentSpec } from "./agent-spec.js";
import type { SpecIssueCode } from "./spec-issue.js";
import { makeTestSpec } from "./test-specs.js";
import { parseAgentSpec, SpecError, validateAgentSpec } from "./validate-agent-spec.js";

const base = makeTestSpec();
const tools = base.tools ?? [];
const withTool = (index: number, patch: Record<string, unknown>) =>
  tools.map((tool, i) => (i === index ? { ...tool, ...patch } : tool));

interface BadCase {
  name: string;
  spec: unknown;
  code: SpecIssueCode;
  path: string;
  severity?: "error" | "warning";
  targetId?: string;
}

const cases: BadCase[] = [
  {
    name: "duplicate tool names",
    spec: { ...base, tools: [...tools, { ...tools[0] }] },
    code: "duplicate_tool_name",
    path: "$.tools[4].name",
    targetId: "alpha",
  },
  {
    name: "an edge naming a tool that does not exist",
    spec: { ...base, edges: [{ id: "e1", kind: "order", source: "alpha", target: "ghost" }] },
    code: "unknown_tool",
    path: "$.edges[0].target",
    targetId: "e1",
  },
  {
    name: "a group member that does not exist",
    spec: { ...base, groups: [{ id: "g", kind: "parallel", name: "G", members: ["alpha", "ghost"] }] },
    code: "unknown_tool",
    path: "$.groups[0].members[1]",
    targetId: "g",
  },
  {
    name: "a join tool that does not exist",
    spec: {
      ...base,
      groups: [{ id: "g", kind: "parallel", name: "G", members: ["alpha", "beta"], join: { tool: "ghost" } }],
    },
    code: "unknown_tool",
    path: "$.groups[0].join.tool",
  },
  {
    name: "a hint naming a tool that does not exist",
    spec: { ...base, hints: { prefer_nodes: ["alpha", "ghost"] } },
    code: "unknown_tool",
    path: "$.hints.prefer_nodes[1]",
  },
  {
    name: "a tool in two parallel groups",
    spec: {
      ...base,
      groups: [
        { id: "g1", kind: "parallel", name: "G1", members: ["alpha", "beta"] },
        { id: "g2", kind: "parallel", name: "G2", members: ["gamma", "alpha"] },
      ],
    },
    code: "tool_in_multiple_groups",
    path: "$.groups[1].members[1]",
    targetId: "g2",
  },
  {
    name: "a sequential_only tool inside a parallel group",
    spec: {
      ...base,
      hints: { sequential_only: ["beta"] },
      groups: [{ id: "g", kind: "parallel", name: "G", members: ["alpha", "beta"] }],
    },
    code: "sequential_only_in_parallel_group",
    path: "$.groups[0].members[1]",
  },
  {
    name: "a sequential_only tool inside a hinted parallel group",
    spec: { ...base, hints: { sequential_only: ["beta"], parallel_groups: [["alpha", "beta"]] } },
    code: "sequential_only_in_parallel_group",
    path: "$.hints.parallel_groups[0][1]",
  },
  ...(["final_response", "parallel", "plan", "task", "task.subagent", "task.tool"] as const).map(
    (opcode): BadCase => ({
      name: `the opcode ${opcode} as a tool name`,
      spec: { ...base, tools: withTool(1, { name: opcode }) },
      code: "reserved_tool_name",
      path: "$.tools[1].name",
    }),
  ),
  {
    name: "an args schema that is not an object schema",
    spec: { ...base, tools: withTool(2, { argsSchema: { type: "string" } }) },
    code: "schema_not_object",
    path: "$.tools[2].argsSchema",
    targetId: "gamma",
  },
  {
    name: "an out schema that is not an object schema",
    spec: { ...base, tools: withTool(0, { outSchema: { type: "array", items: {} } }) },
    code: "schema_not_object",
    path: "$.tools[0].outSchema",
  },
  {
    name: "an args schema that is not JSON Schema",
    spec: {
      ...base,
      tools: withTool(0, { argsSchema: { type: "object", properties: { a: { type: "strng" } } } }),
    },
    code: "invalid_json_schema",
    path: "$.tools[0].argsSchema",
  },
  {
    name: "an auto_seq edge into an external tool while readOnlyOnly is on",
    spec: {
      ...base,
      tools: withTool(1, { sideEffects: "external", autoSeq: true }),
      edges: [{ id: "e1", kind: "auto_seq", source: "alpha", target: "beta" }],
    },
    code: "auto_seq_into_side_effect",
    path: "$.edges[0]",
    severity: "warning",
  },
  {
    name: "a join inject source outside the six",
    spec: {
      ...base,
      groups: [
        {
          id: "g",
          kind: "parallel",
          name: "G",
          members: ["alpha", "beta"],
          join: { tool: "join_all", inject: { text: "$everything" } },
        },
      ],
    },
    code: "invalid_inject_source",
    path: "$.groups[0].join.inject.text",
  },
  {
    name: "an agent id that is not a slug",
    spec: { ...base, id: "My Agent" },
    code: "invalid_slug",
    path: "$.id",
  },
  {
    name: "an edge id that is not a slug",
    spec: { ...base, edges: [{ id: "Edge One", kind: "order", source: "alpha", target: "beta" }] },
    code: "invalid_slug",
    path: "$.edges[0].id",
  },
  {
    name: "a group id that is not a slug",
    spec: { ...base, groups: [{ id: "../etc", kind: "parallel", name: "G", members: ["alpha", "beta"] }] },
    code: "invalid_slug",
    path: "$.groups[0].id",
  },
  {
    name: "a tool name with spaces",
    spec: { ...base, tools: withTool(0, { name: "send email" }) },
    code: "invalid_tool_name",
    path: "$.tools[0].name",
  },
  {
    name: "an API key stored in the spec",
    spec: { ...base, llm: { provider: "openai", model: "gpt-4o", apiKey: "sk-live" } },
    code: "unknown_key",
    path: "$.llm.apiKey",
  },
  {
    name: "a literal Authorization header on an http tool",
    spec: {
      ...base,
      tools: withTool(0, {
        impl: { kind: "http", url: "https://api.example.com/x", headers: { Authorization: "Bearer abc" } },
      }),
    },
    code: "literal_secret_header",
    path: "$.tools[0].impl.headers.Authorization",
  },
  {
    name: "a missing required field",
    spec: { version: 1, id: "x" },
    code: "missing_field",
    path: "$.name",
  },
  {
    name: "a wrong type",
    spec: { ...base, planner: { maxIters: "ten" } },
    code: "invalid_type",
    path: "$.planner.maxIters",
  },
  {
    name: "an unknown impl kind",
    spec: { ...base, tools: withTool(0, { impl: { kind: "python" } }) },
    code: "invalid_value",
    path: "$.tools[0].impl.kind",
  },
  {
    name: "an edge from a tool to itself",
    spec: { ...base, edges: [{ id: "loop", kind: "order", source: "alpha", target: "alpha" }] },
    code: "self_edge",
    path: "$.edges[0]",
  },
  {
    name: "duplicate edge ids",
    spec: {
      ...base,
      edges: [
        { id: "e", kind: "order", source: "alpha", target: "beta" },
        { id: "e", kind: "order", source: "beta", target: "gamma" },
      ],
    },
    code: "duplicate_id",
    path: "$.edges[1].id",
  },
  {
    name: "auto_seq edges while auto-seq is off for the agent",
    spec: {
      ...base,
      tools: withTool(1, { autoSeq: true }),
      edges: [{ id: "e1", kind: "auto_seq", source: "alpha", target: "beta" }],
    },
    code: "auto_seq_disabled",
    path: "$.planner.autoSeq.enabled",
    severity: "warning",
  },
  {
    name: "a tool without a description",
    spec: { ...base, tools: withTool(2, { desc: "  " }) },
    code: "missing_description",
    path: "$.tools[2].desc",
    severity: "warning",
    targetId: "gamma",
  },
  {
    name: "an LLM key read from one of the server's own variables",
    spec: { ...base, llm: { provider: "openai", model: "gpt-4o", apiKeyEnv: "WADDLE_TOKEN" } },
    code: "invalid_env_name",
    path: "$.llm.apiKeyEnv",
  },
  {
    name: "a credential name that is not upper-case letters, digits and _",
    spec: { ...base, llm: { provider: "openai", model: "gpt-4o", credential: "my-key" } },
    code: "invalid_env_name",
    path: "$.llm.credential",
  },
  {
    name: "an llm tool whose model key names a server secret",
    spec: {
      ...base,
      tools: withTool(0, {
        impl: {
          kind: "llm",
          prompt: "x",
          llm: { provider: "openai", model: "m", apiKeyEnv: "WADDLE_SECRET_DB" },
        },
      }),
    },
    code: "invalid_env_name",
    path: "$.tools[0].impl.llm.apiKeyEnv",
    targetId: "alpha",
  },
  {
    name: "a default that is not one of its field's allowed values",
    spec: {
      ...base,
      tools: withTool(0, {
        argsSchema: {
          type: "object",
          properties: { size: { type: "integer", enum: [1, 2, 3], default: 7 } },
        },
      }),
    },
    code: "invalid_default",
    path: "$.tools[0].argsSchema.properties.size.default",
    severity: "warning",
    targetId: "alpha",
  },
  {
    name: "a default of the wrong type, nested in an array of objects",
    spec: {
      ...base,
      tools: withTool(1, {
        outSchema: {
          type: "object",
          properties: {
            rows: {
              type: "array",
              items: { type: "object", properties: { score: { type: "number", default: "high" } } },
            },
          },
        },
      }),
    },
    code: "invalid_default",
    path: "$.tools[1].outSchema.properties.rows.items.properties.score.default",
    severity: "warning",
    targetId: "beta",
  },
  {
    name: "order edges in a cycle",
    spec: {
      ...base,
      edges: [
        { id: "e1", kind: "order", source: "alpha", target: "beta" },
        { id: "e2", kind: "order", source: "beta", target: "alpha" },
      ],
    },
    code: "ordering_cycle",
    path: "$.edges",
    severity: "warning",
  },
];

describe("validateAgentSpec", () => {
  it("accepts a valid spec and fills the seeds' defaults", () => {
    const result = validateAgentSpec(base);
    expect(result.issues).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.spec?.planner).toMatchObject({
      maxIters: 8,
      repairAttempts: 2,
      argFill: true,
      maxConsecutiveArgFailures: 3,
      actionFormat: "auto",
      autoSeq: { enabled: false, execute: false, readOnlyOnly: true },
    });
    expect(result.spec?.llm).toEqual({ provider: "offline", model: "offline", temperature: 0 });
  });

  it.each(cases)("reports $name", ({ spec, code, path, severity = "error", targetId }) => {
    const result = validateAgentSpec(spec);
    const issue = result.issues.find((candidate) => candidate.code === code && candidate.path === path);
    expect(issue, JSON.stringify(result.issues, null, 2)).toBeDefined();
    expect(issue?.severity).toBe(severity);
    expect(issue?.message.length).toBeGreaterThan(10);
    if (targetId !== undefined) expect(issue?.target?.id).toBe(targetId);
    expect(result.ok).toBe(severity === "warning");
  });

  it("takes defaults that fit their fields, nested ones included", () => {
    const argsSchema = {
      type: "object",
      properties: {
        size: { type: "integer", enum: [1, 2, 3], default: 2 },
        when: { type: "string", format: "date", default: "2026-01-31" },
        filter: { type: "object", properties: { tags: { type: "array", default: [] } }, default: {} },
      },
    };
    const impl = { kind: "mock", output: { text: "fixed" } };
    expect(validateAgentSpec({ ...base, tools: withTool(0, { argsSchema, impl }) }).issues).toEqual([]);
  });

  it("still checks cross references when the structure is broken", () => {
    const result = validateAgentSpec({
      ...base,
      id: "Not A Slug",
      edges: [{ id: "e1", kind: "order", source: "alpha", target: "ghost" }],
    });
    expect(result.issues.map((issue) => issue.code).sort()).toEqual(["invalid_slug", "unknown_tool"]);
  });

  it("keeps original indices when a broken tool is skipped", () => {
    const result = validateAgentSpec({ ...base, tools: [42, ...tools, { ...tools[1] }] });
    expect(result.issues).toContainEqual(
      expect.objectContaining({ code: "duplicate_tool_name", path: "$.tools[5].name" }),
    );
  });

  it("reports each problem once", () => {
    const result = validateAgentSpec({ ...base, tools: withTool(0, { name: "task.tool" }) });
    expect(result.issues.filter((issue) => issue.code === "reserved_tool_name")).toHaveLength(1);
  });

  it("rejects input that is not an object", () => {
    for (const input of [null, 42, "spec", []]) {
      const result = validateAgentSpec(input);
      expect(result.ok).toBe(false);
      expect(result.issues[0]?.path).toBe("$");
    }
  });

  it("round-trips parse → JSON → parse without loss", () => {
    const first = AgentSpec.parse(base);
    const second = AgentSpec.parse(JSON.parse(JSON.stringify(first)));
    expect(second).toEqual(first);
  });
});

describe("parseAgentSpec", () => {
  it("throws a SpecError that lists the issues", () => {
    expect.assertions(3);
    try {
      parseAgentSpec({ ...base, id: "Bad Id" });
    } catch (error) {
      expect(error).toBeInstanceOf(SpecError);
      expect((error as SpecError).issues[0]?.code).toBe("invalid_slug");
      expect((error as SpecError).message).toContain("$.id");
    }
  });
});

describe("answerSchema", () => {
  const issuesOf = (answerSchema: unknown) =>
    validateAgentSpec({ ...base, answerSchema }).issues.filter((issue) => issue.severity === "error");

  it("accepts an object schema", () => {
    const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    expect(validateAgentSpec({ ...base, answerSchema: schema }).ok).toBe(true);
  });

  it("refuses a schema that is not of an object, naming the path", () => {
    expect(issuesOf({ type: "string" })).toEqual([
      expect.objectContaining({ code: "schema_not_object", path: "$.answerSchema" }),
    ]);
  });

  it("refuses a schema that is not valid JSON Schema, naming the path", () => {
    expect(issuesOf({ type: "object", properties: { city: { type: "strang" } } })).toEqual([
      expect.objectContaining({ code: "invalid_json_schema", path: "$.answerSchema" }),
    ]);
  });
});
