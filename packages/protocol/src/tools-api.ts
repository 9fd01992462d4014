import { z } from "zod";
import { JsonSchema } from "./agent-spec.js";
import { SIDE_EFFECTS } from "./names.js";

/**
 * What `GET /api/tools`, `GET /api/mcp/servers` and `POST /api/a2a/card` answer: the tools a designer can
 * add to an agent, wherever they come from (module, MCP server, remote A2A agent).
 */

/** A registered module tool, with its JSON Schemas. */
export const ToolInfo = z.object({
  name: z.string(),
  desc: z.string(),
  sideEffects: z.enum(SIDE_EFFECTS),
  tags: z.array(z.string()),
  authScopes: z.array(z.string()),
  costHint: z.string().optional(),
  latencyHintMs: z.number().optional(),
  safetyNotes: z.string().optional(),
  /** The tool's author asks for a person's approval before every call. */
  requiresApproval: z.boolean().optional(),
  argsSchema: JsonSchema,
  outSchema: JsonSchema,
  extra: z.record(z.string(), z.unknown()),
  source: z.string().optional(),
});
export type ToolInfo = z.infer<typeof ToolInfo>;
export const ToolsResponse = z.object({ tools: z.array(ToolInfo) });
export type ToolsResponse = z.infer<typeof ToolsResponse>;

/** A tool an MCP server lists, with the JSON Schemas an `mcp` tool takes from it. */
export const McpToolInfo = z.object({
  name: z.string(),
  desc: z.string(),
  argsSchema: JsonSchema,
  /** Only when the server declares one; results are then its `structuredContent`. */
  outSchema: JsonSchema.optional(),
  /** The server marks the tool as not changing anything (MCP's `readOnlyHint`). */
  readOnly: z.boolean().optional(),
  /**
   * The side effects the tool's annotations give (`readOnlyHint` → read, `openWorldHint` → external,
   * `destructiveHint` → write, both of those false → stateful); they win over a spec's own at run time.
   */
  sideEffects: z.enum(SIDE_EFFECTS).optional(),
  /** Set when Waddle cannot call the tool, saying why (e.g. it needs MCP tasks): never offered. */
  unavailable: z.string().optional(),
});
export type McpToolInfo = z.infer<typeof McpToolInfo>;

/**
 * An MCP server the operator listed (`WADDLE_MCP_SERVERS`): `idle` until first used (or after it exited),
 * `connected` with its tools, `error` with what went wrong.
 */
export const McpServerInfo = z.object({
  name: z.string(),
  /** `sse` is the legacy HTTP+SSE transport. */
  transport: z.enum(["stdio", "http", "sse"]),
  status: z.enum(["connected", "error", "idle"]),
  error: z.string().optional(),
  tools: z.array(McpToolInfo),
});
export type McpServerInfo = z.infer<typeof McpServerInfo>;

/** A remote A2A agent's card as `POST /api/a2a/card` answers it (read through the http allow-list). */
export const A2aCardSummary = z.object({
  cardUrl: z.string(),
  name: z.string(),
  description: z.string(),
  skills: z.array(z.object({ name: z.string(), description: z.string(), examples: z.array(z.string()) })),
  streaming: z.boolean(),
});
export type A2aCardSummary = z.infer<typeof A2aCardSummary>;
export const A2aCardResponse = z.object({ card: A2aCardSummary });
export type A2aCardResponse = z.infer<typeof A2aCardResponse>;
export const McpServersResponse = z.object({ servers: z.array(McpServerInfo) });
export type McpServersResponse = z.infer<typeof McpServersResponse>;
