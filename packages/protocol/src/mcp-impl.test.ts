import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { McpServersResponse } from "./tools-api.js";
import { agentSpecJsonSchema } from "./json-schema.js";
import { makeTestSpec } from "./test-specs.js";
import { validateAgentSpec } from "./validate-agent-spec.js";

const withImpl = (impl: unknown) =>
  makeTestSpec({ tools: [{ name: "search", desc: "Searches", impl: impl as never }] });
const validateJsonSchema = new Ajv2020({ strict: false, allErrors: true, logger: false }).compile(
  agentSpecJsonSchema,
);

describe("the mcp tool impl", () => {
  it("names a listed server and one of its tools, nothing else", () => {
    const spec = withImpl({ kind: "mcp", server: "docs.search-1", tool: "find_pages" });
    const result = validateAgentSpec(spec);
    expect(result.ok, JSON.stringify(result.issues)).toBe(true);
    expect(result.spec?.tools[0]?.impl).toEqual({ kind: "mcp", server: "docs.search-1", tool: "find_pages" });
    expect(validateJsonSchema(spec), JSON.stringify(validateJsonSchema.errors)).toBe(true);
  });

  it.each([
    "github.com/modelcontextprotocol/servers/tree/main/src/github",
    "@modelcontextprotocol/server-memory",
    "localhost:3001",
    "a".repeat(128),
  ])("takes the server names other clients write: %s", (server) => {
    const spec = withImpl({ kind: "mcp", server, tool: "find_pages" });
    const result = validateAgentSpec(spec);
    expect(result.ok, JSON.stringify(result.issues)).toBe(true);
    expect(validateJsonSchema(spec), JSON.stringify(validateJsonSchema.errors)).toBe(true);
  });

  it.each([
    [
      "a command of its own",
      { kind: "mcp", server: "fs", tool: "read", command: "rm" },
      "$.tools[0].impl.command",
    ],
    ["a URL of its own", { kind: "mcp", server: "fs", tool: "read", url: "http://x" }, "$.tools[0].impl.url"],
    ["no server", { kind: "mcp", tool: "read" }, "$.tools[0].impl.server"],
    ["a server name with a space", { kind: "mcp", server: "a b", tool: "read" }, "$.tools[0].impl.server"],
    [
      "a server name that starts with a slash",
      { kind: "mcp", server: "/a", tool: "read" },
      "$.tools[0].impl.server",
    ],
    [
      "a server name over 128 characters",
      { kind: "mcp", server: "a".repeat(129), tool: "read" },
      "$.tools[0].impl.server",
    ],
    ["an empty tool", { kind: "mcp", server: "fs", tool: "" }, "$.tools[0].impl.tool"],
  ])("refuses %s", (_name, impl, path) => {
    const result = validateAgentSpec(withImpl(impl));
    expect(result.ok).toBe(false);
    expect(result.issues.map((issue) => issue.path)).toContain(path);
    expect(validateJsonSchema(withImpl(impl))).toBe(false);
  });
});

describe("McpServersResponse", () => {
  it("reads servers with their status and tools", () => {
    const body = {
      servers: [
        {
          name: "fixture",
          transport: "stdio",
          status: "connected",
          tools: [{ name: "echo", desc: "Echoes", argsSchema: { type: "object", properties: {} } }],
        },
        { name: "remote", transport: "http", status: "error", error: "not allowed", tools: [] },
      ],
    };
    expect(McpServersResponse.parse(body)).toEqual(body);
    expect(McpServersResponse.safeParse({ servers: [{ ...body.servers[1], status: "down" }] }).success).toBe(
      false,
    );
  });
});
