import { z } from "zod";

/** Opcodes of the unified action format (seed 004): never tool names. */
export const OPCODES = ["final_response", "parallel", "task.subagent", "task.tool"] as const;
export type Opcode = (typeof OPCODES)[number];

/** Opcodes plus the older synonyms that normalization still accepts (`plan`, `task`). */
export const RESERVED_TOOL_NAMES: ReadonlySet<string> = new Set([...OPCODES, "plan", "task"]);

/** Join injection sources that the seeds define for `parallel` joins. */
export const INJECT_SOURCES = [
  "$results",
  "$branches",
  "$failures",
  "$success_count",
  "$failure_count",
  "$expect",
] as const;
export type InjectSource = (typeof INJECT_SOURCES)[number];

export const SIDE_EFFECTS = ["pure", "read", "write", "external", "stateful"] as const;
export type SideEffect = (typeof SIDE_EFFECTS)[number];

/** Side effects that auto-seq and read-only policies treat as safe. */
export const READ_ONLY_SIDE_EFFECTS: ReadonlySet<SideEffect> = new Set(["pure", "read"]);

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const TOOL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const ENV_NAME_PATTERN = /^[A-Z_][A-Z0-9_]{0,127}$/;
/** A credential kept by the server (LLM key or secret): upper-case letters, digits and `_`. */
export const CREDENTIAL_NAME_PATTERN = /^[A-Z0-9_]{1,64}$/;
/**
 * A name in the operator's `mcpServers` list (`WADDLE_MCP_SERVERS`): letters, digits, `_ . - / @ :` (max
 * 128), so that the names other clients write work as they are (Cline's
 * `github.com/modelcontextprotocol/servers/tree/main/src/github`, `@scope/pkg`, `host:port`).
 */
export const MCP_SERVER_NAME_PATTERN = /^[A-Za-z0-9@][A-Za-z0-9_.\-/@:]{0,127}$/;
/** A tool name as MCP servers list them (the MCP spec's 1–128 characters of letters, digits, `_ - .`). */
export const MCP_TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** Lower-case identifier: agent ids, edge ids, group ids. */
export const Slug = z
  .string()
  .regex(
    SLUG_PATTERN,
    "must be a slug: lower-case letters, digits, '-' or '_', starting with a letter or digit",
  );

/** A tool name: what the LLM writes in `next_node`. */
export const ToolName = z
  .string()
  .regex(TOOL_NAME_PATTERN, "must start with a letter or '_' and hold only letters, digits and '_' (max 64)");

/** The name of an environment variable (never its value). */
export const EnvName = z
  .string()
  .regex(ENV_NAME_PATTERN, "must be an environment variable name such as OPENAI_API_KEY");

/** The name of a credential the server keeps (`llm.credential`, the Credentials page). */
export const CredentialName = z
  .string()
  .regex(CREDENTIAL_NAME_PATTERN, "must be 1-64 upper-case letters, digits or '_', such as OPENAI_KEY");

/** The name of an MCP server the operator listed; a spec names it, never a command or URL. */
export const McpServerName = z
  .string()
  .regex(
    MCP_SERVER_NAME_PATTERN,
    "must be the name of a server in WADDLE_MCP_SERVERS: letters, digits, '_', '-', '.', '/', '@' or ':' (max 128)",
  );

/** The name of a tool an MCP server lists. */
export const McpToolName = z
  .string()
  .regex(MCP_TOOL_NAME_PATTERN, "must be a tool name the MCP server lists: letters, digits, '_', '-' or '.'");

export function isOpcode(name: string): name is Opcode {
  return (OPCODES as readonly string[]).includes(name);
}

export function isInjectSource(value: string): value is InjectSource {
  return (INJECT_SOURCES as readonly string[]).includes(value);
}

/** What to tell a user who gave a tool an opcode's name. */
export function getReservedNameMessage(name: string): string {
  return `"${name}" is a planner opcode, not a tool name: rename the tool (e.g. "${name.replace(/\W/g, "_")}_tool").`;
}
