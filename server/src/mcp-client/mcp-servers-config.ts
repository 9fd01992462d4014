import { readFileSync } from "node:fs";
import path from "node:path";
import { EnvName, MCP_SERVER_NAME_PATTERN, parseJson, protoSafeReviver } from "@waddle/protocol";
import { z } from "zod";
import { ConfigError } from "../shared/config-error.js";
import { ToolExecutionError } from "../tools/tool-execution-error.js";

/** A literal value, or the name of a server-held secret (`WADDLE_SECRET_<NAME>`), as http tool headers. */
const ConfigValue = z.union([z.string().max(8_000), z.strictObject({ secret: EnvName })]);
export type McpConfigValue = z.infer<typeof ConfigValue>;

const StdioEntry = z.strictObject({
  type: z.literal("stdio").optional(),
  command: z.string().min(1).max(4_000),
  args: z.array(z.string().max(8_000)).max(200).default([]),
  env: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a variable name"), ConfigValue)
    .default({}),
  cwd: z.string().min(1).max(4_000).optional(),
  disabled: z.boolean().optional(),
});

const HttpEntry = z.strictObject({
  type: z.enum(["http", "streamable-http", "streamableHttp"]).optional(),
  url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL of a Streamable HTTP endpoint" }),
  headers: z.record(z.string().min(1).max(200), ConfigValue).default({}),
  disabled: z.boolean().optional(),
});

const Entry = z.union([StdioEntry, HttpEntry], {
  error: 'give {"command", "args"?, "env"?} for a stdio server or {"url", "headers"?} for Streamable HTTP',
});

const McpServersFile = z.strictObject({
  mcpServers: z.record(
    z.string().regex(MCP_SERVER_NAME_PATTERN, "server names are letters, digits, '_', '-' or '.' (max 64)"),
    Entry,
  ),
});

/** One server the operator listed: started (stdio) or called (Streamable HTTP) by its name only. */
export type McpServerConfig =
  | {
      name: string;
      transport: "stdio";
      command: string;
      args: string[];
      env: Record<string, McpConfigValue>;
      cwd?: string;
    }
  | { name: string; transport: "http"; url: string; headers: Record<string, McpConfigValue> };

const HINT =
  'Give {"mcpServers": {"name": {"command": "…", "args": […], "env": {…}}}} for stdio servers or ' +
  '{"mcpServers": {"name": {"url": "https://…", "headers": {…}}}} for Streamable HTTP ones; values may be {"secret": "NAME"}.';

/**
 * Reads `WADDLE_MCP_SERVERS`: inline JSON or the path of a JSON file in the `mcpServers` format most MCP
 * clients use. Entries with `"disabled": true` are left out. Throws `ConfigError` naming what to fix.
 */
export function readMcpServersConfig(value: string | undefined, cwd: string): McpServerConfig[] {
  const text = value?.trim();
  if (!text) return [];
  let json = text;
  if (!text.startsWith("{")) {
    const file = path.resolve(cwd, text);
    try {
      json = readFileSync(file, "utf8");
    } catch (error) {
      throw new ConfigError(
        `WADDLE_MCP_SERVERS names the file ${file}, which cannot be read (${(error as { code?: string }).code ?? String(error)}): give inline JSON or the path of a JSON file.`,
      );
    }
  }
  const parsed = parseJson(json, { reviver: protoSafeReviver });
  if (!parsed.ok) throw new ConfigError(`WADDLE_MCP_SERVERS is not valid JSON: ${parsed.error}. ${HINT}`);
  const result = McpServersFile.safeParse(parsed.value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.map(String).join(".") || "(root)";
    // A bad server name is an issue of the record's key: its own message says what names may be.
    const message = (issue?.code === "invalid_key" ? issue.issues[0]?.message : issue?.message) ?? "invalid";
    throw new ConfigError(`WADDLE_MCP_SERVERS at ${where}: ${message}. ${HINT}`);
  }
  return Object.entries(result.data.mcpServers).flatMap(([name, entry]): McpServerConfig[] => {
    if (entry.disabled) return [];
    if ("command" in entry) {
      return [
        {
          name,
          transport: "stdio",
          command: entry.command,
          args: entry.args,
          env: entry.env,
          ...(entry.cwd ? { cwd: path.resolve(cwd, entry.cwd) } : {}),
        },
      ];
    }
    return [{ name, transport: "http", url: entry.url, headers: entry.headers }];
  });
}

/** The secret names a server's env or headers use. */
export function getMcpSecretNames(config: McpServerConfig): string[] {
  const values = Object.values(config.transport === "stdio" ? config.env : config.headers);
  return values.flatMap((value) => (typeof value === "string" ? [] : [value.secret]));
}

/**
 * Refuses, at start, a server whose env or headers name a secret the environment does not hold, so that
 * the mistake shows at once instead of at the first call.
 */
export function assertMcpSecretsPresent(
  servers: readonly McpServerConfig[],
  secrets: Readonly<Record<string, string>>,
): void {
  for (const server of servers) {
    const missing = getMcpSecretNames(server).find(
      (name) => !Object.prototype.hasOwnProperty.call(secrets, name),
    );
    if (missing !== undefined) {
      throw new ConfigError(
        `WADDLE_MCP_SERVERS: server "${server.name}" names the secret ${missing}: set WADDLE_SECRET_${missing} in the server's environment.`,
      );
    }
  }
}

/** Literal values as they are, secrets by name from `secrets`; throws `missing_secret` naming a missing one. */
export function resolveMcpConfigValues(
  values: Readonly<Record<string, McpConfigValue>>,
  options: { secrets: Readonly<Record<string, string>>; server: string },
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === "string") {
      out[key] = value;
      continue;
    }
    if (!Object.prototype.hasOwnProperty.call(options.secrets, value.secret)) {
      throw new ToolExecutionError(
        "missing_secret",
        `MCP server "${options.server}" needs the secret ${value.secret}: set WADDLE_SECRET_${value.secret} in the server's environment.`,
      );
    }
    out[key] = options.secrets[value.secret]!;
  }
  return out;
}
