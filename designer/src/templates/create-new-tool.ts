import {
  A2A_RESULT_SCHEMA,
  type A2aCardSummary,
  MCP_TEXT_RESULT_SCHEMA,
  TOOL_NAME_PATTERN,
  ToolSpec,
  type McpToolInfo,
  type ToolImplKind,
  type ToolInfo,
} from "@waddle/protocol";
import { createUniqueName } from "../graph/create-unique-name.js";

/** The kinds a tool can be created as from the palette (module tools come from the server). */
export const NEW_TOOL_KINDS = ["mock", "http", "llm", "agent"] as const;
export type NewToolKind = (typeof NEW_TOOL_KINDS)[number];

export const TOOL_KIND_INFO: Record<ToolImplKind, { label: string; blurb: string }> = {
  module: { label: "Module", blurb: "A TypeScript tool registered with the server." },
  mock: { label: "Mock", blurb: "Returns a templated result: design now, write the code later." },
  http: { label: "HTTP", blurb: "Calls a URL on an allow-listed host." },
  llm: { label: "LLM", blurb: "Asks a model; the JSON answer is checked against the out schema." },
  agent: { label: "Subagent", blurb: "Runs another saved agent." },
  mcp: { label: "MCP", blurb: "A tool of an MCP server the Waddle server lists (WADDLE_MCP_SERVERS)." },
  a2a: {
    label: "A2A agent",
    blurb: "A remote agent over the A2A protocol; its host must be on the server's http allow-list.",
  },
};

const QUERY_ARGS = {
  type: "object",
  properties: { query: { type: "string", description: "What the user asked for" } },
  required: ["query"],
};

/** Starting points with sensible schemas, so that a new tool is valid and does something at once. */
function getDraft(kind: NewToolKind, options: { agentIds: readonly string[] }): Record<string, unknown> {
  switch (kind) {
    case "mock":
      return {
        name: "mock_tool",
        desc: "Returns a templated result for a query (a mock: design the agent now, write the real tool later).",
        sideEffects: "pure",
        argsSchema: QUERY_ARGS,
        outSchema: { type: "object", properties: { result: { type: "string" } }, required: ["result"] },
        impl: { kind: "mock", output: { result: "Mock result for {{args.query}}" } },
      };
    case "http":
      return {
        name: "http_tool",
        desc: "Fetch data from an HTTP API.",
        sideEffects: "read",
        argsSchema: QUERY_ARGS,
        outSchema: { type: "object", properties: {} },
        impl: { kind: "http", method: "GET", url: "https://api.example.com/search?q={query}" },
      };
    case "llm":
      return {
        name: "llm_tool",
        desc: "Ask a model to transform the input into structured output.",
        sideEffects: "pure",
        argsSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
        outSchema: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"] },
        impl: { kind: "llm", prompt: "Summarize the following text in two sentences:\n\n{{args.text}}" },
      };
    case "agent":
      return {
        name: "subagent",
        desc: "Delegate the query to another agent and return its answer.",
        sideEffects: "read",
        argsSchema: QUERY_ARGS,
        outSchema: { type: "object", properties: { answer: { type: "string" } } },
        impl: { kind: "agent", agentId: options.agentIds[0] ?? "another-agent" },
      };
  }
}

/** A new declared tool of a kind, with a name not yet taken. */
export function createNewTool(options: {
  kind: NewToolKind;
  taken: Iterable<string>;
  agentIds?: readonly string[];
}): ToolSpec {
  const draft = getDraft(options.kind, { agentIds: options.agentIds ?? [] });
  const name = createUniqueName({ base: String(draft.name), taken: options.taken });
  return ToolSpec.parse({ ...draft, name });
}

/** A tool that uses a module tool registered with the server, with its schemas and metadata. */
export function createModuleTool(options: { info: ToolInfo; taken: Iterable<string> }): ToolSpec {
  const { info } = options;
  const name = createUniqueName({ base: info.name, taken: options.taken });
  return ToolSpec.parse({
    name,
    desc: info.desc,
    sideEffects: info.sideEffects,
    tags: info.tags,
    authScopes: info.authScopes,
    ...(info.costHint === undefined ? {} : { costHint: info.costHint }),
    ...(info.latencyHintMs === undefined ? {} : { latencyHintMs: Math.round(info.latencyHintMs) }),
    ...(info.safetyNotes === undefined ? {} : { safetyNotes: info.safetyNotes }),
    // The planner keeps the module's approval anyway; the copy shows the lock on the canvas.
    requiresApproval: info.requiresApproval === true,
    argsSchema: info.argsSchema,
    outSchema: info.outSchema,
    extra: info.extra,
    impl: { kind: "module", ref: info.name },
  });
}

/**
 * A tool that calls a tool of one of the server's MCP servers, with the schemas its server lists (a text
 * result `{text}` when it declares no output schema). Its name is the MCP tool's, made a valid tool name.
 */
export function createMcpTool(options: {
  server: string;
  info: McpToolInfo;
  taken: Iterable<string>;
}): ToolSpec {
  const { info } = options;
  const base = getToolNameBase(info.name);
  return ToolSpec.parse({
    name: createUniqueName({ base, taken: options.taken }),
    desc: info.desc,
    // What its annotations say (they win at run time anyway), else "external" until someone who knows
    // says otherwise.
    sideEffects: info.sideEffects ?? (info.readOnly ? "read" : "external"),
    argsSchema: info.argsSchema,
    outSchema: info.outSchema ?? MCP_TEXT_RESULT_SCHEMA,
    impl: { kind: "mcp", server: options.server, tool: info.name },
  });
}

/** An MCP tool name (letters, digits, `_`, `-`, `.`) as a tool name the model can write. */
function getToolNameBase(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 56);
  const base = /^[A-Za-z_]/.test(cleaned) ? cleaned : `mcp_${cleaned}`.slice(0, 56);
  return TOOL_NAME_PATTERN.test(base) ? base : "mcp_tool";
}

/**
 * A tool that asks a remote A2A agent, described by its card: the name from the agent's, the description
 * from its description and skills (what the planner reads to choose it), a `query` arg and the A2A result.
 */
export function createA2aTool(options: {
  url: string;
  card: A2aCardSummary;
  taken: Iterable<string>;
}): ToolSpec {
  const { card } = options;
  const cleaned = card.name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 50);
  const base = TOOL_NAME_PATTERN.test(`ask_${cleaned}`) ? `ask_${cleaned}` : "ask_agent";
  const skills = card.skills
    .slice(0, 8)
    .map((skill) => `${skill.name}${skill.description ? ` (${skill.description})` : ""}`)
    .join("; ");
  const desc = `Asks the remote agent "${card.name}": ${card.description}${skills ? ` Skills: ${skills}.` : ""}`;
  return ToolSpec.parse({
    name: createUniqueName({ base, taken: options.taken }),
    desc: desc.slice(0, 4_000),
    sideEffects: "external",
    argsSchema: {
      type: "object",
      properties: { query: { type: "string", description: "What to ask the remote agent" } },
      required: ["query"],
    },
    outSchema: A2A_RESULT_SCHEMA,
    impl: { kind: "a2a", url: options.url },
  });
}
