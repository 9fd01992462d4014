import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { EnvName, MCP_SERVER_NAME_PATTERN, parseJson, protoSafeReviver } from "@waddle/protocol";
import { z } from "zod";
import { ConfigError } from "../shared/config-error.js";
import { ToolExecutionError } from "../tools/tool-execution-error.js";

/** A literal value, or the name of a server-held secret (`WADDLE_SECRET_<NAME>`), as http tool headers. */
const ConfigValue = z.union([z.string().max(8_000), z.strictObject({ secret: EnvName })]);
export type McpConfigValue = z.infer<typeof ConfigValue>;

const VariableName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a variable name");
const HeaderName = z.string().min(1).max(200);

/**
 * The keys of one server entry that Waddle reads, across the files other clients write: the common
 * `mcpServers` entry (Claude Desktop, Cursor, Windsurf), Cline's (`transportType`, `autoApprove`,
 * `disabled`, `timeout` in seconds) and VS Code's `servers` entry (`type`, `envFile`). Other keys are left
 * out with a note.
 */
const RawEntry = z.looseObject({
  type: z.string().max(40).optional(),
  transportType: z.string().max(40).optional(),
  command: z.string().min(1).max(4_000).optional(),
  args: z.array(z.string().max(8_000)).max(200).optional(),
  env: z.record(VariableName, z.union([ConfigValue, z.number(), z.boolean(), z.null()])).optional(),
  envFile: z.string().min(1).max(4_000).optional(),
  cwd: z.string().min(1).max(4_000).optional(),
  url: z.string().max(4_000).optional(),
  serverUrl: z.string().max(4_000).optional(),
  headers: z.record(HeaderName, ConfigValue).optional(),
  disabled: z.boolean().optional(),
  timeout: z
    .number()
    .positive("must be a number of seconds above 0")
    .max(86_400, "is in seconds: at most 86400")
    .optional(),
});
type RawEntry = z.infer<typeof RawEntry>;

/** Keys read above, and what the other clients' keys mean here. */
const READ_KEYS = new Set(Object.keys(RawEntry.shape));
const MEANINGLESS_KEYS: Readonly<Record<string, string>> = {
  autoApprove:
    "has no meaning in Waddle: whether a call waits for a person comes from the agent spec (requiresApproval, sideEffects and the approval policy)",
  alwaysAllow:
    "has no meaning in Waddle: whether a call waits for a person comes from the agent spec (requiresApproval, sideEffects and the approval policy)",
};

const ServerName = z
  .string()
  .regex(
    MCP_SERVER_NAME_PATTERN,
    "server names are letters, digits, '_', '-', '.', '/', '@' or ':', starting with a letter, digit or '@' (max 128)",
  );

const ServersRecord = z.record(ServerName, z.unknown());

/** The top level: `mcpServers` (most clients) and/or `servers` (VS Code); other keys are noted and left. */
const RawFile = z.looseObject({
  mcpServers: ServersRecord.optional(),
  servers: ServersRecord.optional(),
});

interface ServerCommon {
  name: string;
  /** Cline's `timeout` (seconds) in ms: the longest one call to this server may take. */
  timeoutMs?: number;
  /** What the config gave that Waddle leaves out, and why; logged when the server starts. */
  notes?: string[];
}

/** One server the operator listed: started (stdio) or called (Streamable HTTP, legacy SSE) by its name only. */
export type McpServerConfig =
  | (ServerCommon & {
      transport: "stdio";
      command: string;
      args: string[];
      env: Record<string, McpConfigValue>;
      cwd?: string;
    })
  | (ServerCommon & { transport: "http" | "sse"; url: string; headers: Record<string, McpConfigValue> });

const HINT =
  'Give {"mcpServers": {"name": {"command": "…", "args": […], "env": {…}}}} for stdio servers or ' +
  '{"mcpServers": {"name": {"url": "https://…", "headers": {…}}}} for Streamable HTTP ones (add "type": "sse" for the legacy SSE transport); ' +
  'VS Code\'s {"servers": {…}} works too, and values may be {"secret": "NAME"} or "${input:NAME}".';

const HTTP_TYPES = new Set([
  "http",
  "streamable-http",
  "streamableHttp",
  "streamable_http",
  "streamablehttp",
]);

/**
 * Reads `WADDLE_MCP_SERVERS`: inline JSON or the path of a JSON file as MCP clients write it: Claude
 * Desktop's `claude_desktop_config.json` (its other top-level keys are left), Cline's
 * `cline_mcp_settings.json`, Cursor's `mcp.json` or VS Code's `.vscode/mcp.json` (`servers`). Entries with
 * `"disabled": true` are left out. Keys Waddle does not read are left with a note on the server (logged at
 * start), never refused. Throws `ConfigError` naming what to fix.
 */
export function readMcpServersConfig(value: string | undefined, cwd: string): McpServerConfig[] {
  const text = value?.trim();
  if (!text) return [];
  let json = text;
  let base = cwd;
  if (!text.startsWith("{")) {
    const file = path.resolve(cwd, text);
    json = readConfigFile(file, "WADDLE_MCP_SERVERS names the file");
    base = path.dirname(file);
  }
  const parsed = parseJson(json, { reviver: protoSafeReviver });
  if (!parsed.ok) throw new ConfigError(`WADDLE_MCP_SERVERS is not valid JSON: ${parsed.error}. ${HINT}`);
  const file = RawFile.safeParse(parsed.value);
  if (!file.success) throw toConfigError(file.error);
  const { mcpServers, servers, ...rest } = file.data;
  if (mcpServers === undefined && servers === undefined) {
    throw new ConfigError(
      `WADDLE_MCP_SERVERS at (root): lists no "mcpServers" (or VS Code's "servers"). ${HINT}`,
    );
  }
  const fileNotes = Object.keys(rest).map((key) =>
    key === "inputs"
      ? `WADDLE_MCP_SERVERS: VS Code's "inputs" are not prompted for: Waddle reads "\${input:ID}" as the secret WADDLE_SECRET_<ID>`
      : `WADDLE_MCP_SERVERS: top-level key "${key}" is not about MCP servers and is ignored`,
  );
  const entries: [string, string, unknown][] = [
    ...Object.entries(mcpServers ?? {}).map(([name, entry]): [string, string, unknown] => [
      "mcpServers",
      name,
      entry,
    ]),
    ...Object.entries(servers ?? {}).map(([name, entry]): [string, string, unknown] => [
      "servers",
      name,
      entry,
    ]),
  ];
  const seen = new Set<string>();
  const configs = entries.flatMap(([section, name, entry]): McpServerConfig[] => {
    if (seen.has(name)) {
      throw new ConfigError(
        `WADDLE_MCP_SERVERS at ${section}.${name}: the server "${name}" is listed twice (in mcpServers and servers): keep one.`,
      );
    }
    seen.add(name);
    const config = readEntry(entry, { where: `${section}.${name}`, name, cwd, base });
    return config === undefined ? [] : [config];
  });
  if (fileNotes.length > 0 && configs[0] !== undefined) {
    configs[0] = { ...configs[0], notes: [...fileNotes, ...(configs[0].notes ?? [])] };
  }
  return configs;
}

function readEntry(
  value: unknown,
  options: { where: string; name: string; cwd: string; base: string },
): McpServerConfig | undefined {
  const { where, name } = options;
  const parsed = RawEntry.safeParse(value);
  if (!parsed.success) throw toConfigError(parsed.error, where);
  const entry = parsed.data;
  if (entry.disabled === true) return undefined;
  const notes = Object.keys(entry)
    .filter((key) => !READ_KEYS.has(key))
    .map((key) =>
      MEANINGLESS_KEYS[key] === undefined
        ? `"${key}" is not a key Waddle reads and is ignored`
        : `"${key}" ${MEANINGLESS_KEYS[key]}`,
    );
  // `notes` fills up below: it is attached to the server at the end, if it holds any.
  const common = (): ServerCommon => ({
    name,
    ...(entry.timeout === undefined ? {} : { timeoutMs: Math.round(entry.timeout * 1_000) }),
    ...(notes.length > 0 ? { notes } : {}),
  });
  const transport = getTransport(entry, where, notes);
  const vars = { cwd: options.cwd };
  if (transport === "stdio") {
    if (entry.command === undefined) {
      throw new ConfigError(
        `WADDLE_MCP_SERVERS at ${where}.command: a stdio server needs a "command". ${HINT}`,
      );
    }
    if (entry.headers !== undefined)
      notes.push('"headers" is for HTTP servers and is ignored for a stdio one');
    const env: Record<string, McpConfigValue> = {};
    if (entry.envFile !== undefined) {
      const envFile = path.resolve(options.base, substitute(entry.envFile, vars, `${where}.envFile`));
      Object.assign(env, readEnvFile(envFile, `${where}.envFile`));
    }
    for (const [key, raw] of Object.entries(entry.env ?? {})) {
      if (raw === null) continue;
      env[key] = toConfigValue(typeof raw === "object" ? raw : String(raw), `${where}.env.${key}`, vars);
    }
    const cwd = entry.cwd === undefined ? undefined : substitute(entry.cwd, vars, `${where}.cwd`);
    return {
      ...common(),
      transport: "stdio",
      command: substitute(entry.command, vars, `${where}.command`),
      args: (entry.args ?? []).map((arg, index) => substitute(arg, vars, `${where}.args.${index}`)),
      env,
      ...(cwd === undefined ? {} : { cwd: path.resolve(options.cwd, cwd) }),
    };
  }
  const url = entry.url ?? entry.serverUrl;
  const parsedUrl = parseUrl(url);
  if (parsedUrl === undefined || !/^https?:$/.test(parsedUrl.protocol)) {
    throw new ConfigError(
      `WADDLE_MCP_SERVERS at ${where}.url: must be an http(s) URL of ${transport === "sse" ? "an SSE" : "a Streamable HTTP"} endpoint. ${HINT}`,
    );
  }
  for (const key of ["command", "args", "env", "envFile", "cwd"] as const) {
    if (entry[key] !== undefined) notes.push(`"${key}" is for stdio servers and is ignored for a URL one`);
  }
  const headers: Record<string, McpConfigValue> = {};
  for (const [key, raw] of Object.entries(entry.headers ?? {})) {
    headers[key] = toConfigValue(raw, `${where}.headers.${key}`, vars);
  }
  return { ...common(), transport, url: parsedUrl.href, headers };
}

/**
 * stdio, Streamable HTTP or legacy SSE, from `type` (VS Code, Cursor, Cline's newer files) or Cline's
 * `transportType`; without either, a `command` is stdio and a URL is Streamable HTTP unless its path ends
 * in `/sse` (the legacy transport's usual endpoint, which clients such as Cursor detect so too).
 */
function getTransport(entry: RawEntry, where: string, notes: string[]): McpServerConfig["transport"] {
  const declared = entry.type ?? entry.transportType;
  if (declared !== undefined) {
    if (declared === "stdio") return "stdio";
    if (declared === "sse") return "sse";
    if (HTTP_TYPES.has(declared)) return "http";
    throw new ConfigError(
      `WADDLE_MCP_SERVERS at ${where}.${entry.type === undefined ? "transportType" : "type"}: "${declared}" is not a transport Waddle speaks: give "stdio", "http" (Streamable HTTP) or "sse" (the legacy HTTP+SSE transport).`,
    );
  }
  const url = entry.url ?? entry.serverUrl;
  if (entry.command !== undefined && url !== undefined) {
    throw new ConfigError(
      `WADDLE_MCP_SERVERS at ${where}: gives both a "command" and a "url": keep one, or say which with "type".`,
    );
  }
  if (entry.command !== undefined) return "stdio";
  if (url === undefined) {
    throw new ConfigError(
      `WADDLE_MCP_SERVERS at ${where}: give {"command", "args"?, "env"?} for a stdio server or {"url", "headers"?} for an HTTP one. ${HINT}`,
    );
  }
  if (/\/sse\/?$/.test(parseUrl(url)?.pathname ?? "")) {
    notes.push('the URL ends in /sse and no "type" is given: it is called with the legacy SSE transport');
    return "sse";
  }
  return "http";
}

function parseUrl(url: string | undefined): URL | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** `${workspaceFolder}` (Waddle's working folder), `${userHome}` and `${env:…}`-free text as it is. */
function substitute(text: string, vars: { cwd: string }, where: string): string {
  return text.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
    if (name === "workspaceFolder" || name === "cwd") return vars.cwd;
    if (name === "userHome") return homedir();
    if (name === "pathSeparator" || name === "/") return path.sep;
    if (/^(input|env):/.test(name)) {
      throw new ConfigError(
        `WADDLE_MCP_SERVERS at ${where}: "${whole}" can be a whole env or header value only (read as the secret WADDLE_SECRET_<NAME>).`,
      );
    }
    return whole;
  });
}

/**
 * A value as given, with VS Code's `${input:ID}` and `${env:NAME}` read as the secret of that name: set
 * `WADDLE_SECRET_<NAME>` (the id upper-cased, other characters as `_`). A placeholder inside a longer value
 * is refused with what to do instead.
 */
function toConfigValue(value: McpConfigValue, where: string, vars: { cwd: string }): McpConfigValue {
  if (typeof value !== "string") return value;
  const whole = /^\$\{(?:input|env):([^}]+)\}$/.exec(value);
  if (whole?.[1] !== undefined) return { secret: toSecretName(whole[1], where) };
  if (/\$\{(?:input|env):/.test(value)) {
    throw new ConfigError(
      `WADDLE_MCP_SERVERS at ${where}: "${value}" uses a placeholder inside a longer value: give the whole value as a secret instead (e.g. set WADDLE_SECRET_X to the full text and write "\${input:x}").`,
    );
  }
  return substitute(value, vars, where);
}

function toSecretName(id: string, where: string): string {
  const name = id
    .trim()
    .replace(/[^A-Za-z0-9_]/g, "_")
    .toUpperCase();
  const parsed = EnvName.safeParse(name);
  if (!parsed.success) {
    throw new ConfigError(
      `WADDLE_MCP_SERVERS at ${where}: "${id}" cannot name a secret: use letters, digits and '_'.`,
    );
  }
  return parsed.data;
}

/** A `.env` file's `NAME=value` lines (VS Code's `envFile`), as literal values. */
function readEnvFile(file: string, where: string): Record<string, string> {
  const text = readConfigFile(file, `WADDLE_MCP_SERVERS at ${where} names the file`);
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match?.[1] === undefined || line.trim().startsWith("#")) continue;
    const raw = match[2] ?? "";
    const quoted = /^(["'])(.*)\1$/.exec(raw);
    out[match[1]] = quoted?.[2] ?? raw.replace(/\s+#.*$/, "");
  }
  return out;
}

function readConfigFile(file: string, what: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(
      `${what} ${file}, which cannot be read (${(error as { code?: string }).code ?? String(error)}): give inline JSON or the path of a JSON file.`,
    );
  }
}

function toConfigError(error: z.ZodError, prefix?: string): ConfigError {
  const issue = error.issues[0];
  const where = [prefix, ...(issue?.path.map(String) ?? [])].filter(Boolean).join(".") || "(root)";
  // A bad server name is an issue of the record's key: its own message says what names may be.
  const message = (issue?.code === "invalid_key" ? issue.issues[0]?.message : issue?.message) ?? "invalid";
  return new ConfigError(`WADDLE_MCP_SERVERS at ${where}: ${message}. ${HINT}`);
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
