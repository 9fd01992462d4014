/** What this reads of an MCP server's config (`McpServerConfig`): its env or headers, literal or secret refs. */
export type McpSecretSource =
  | { transport: "stdio"; env: Readonly<Record<string, unknown>> }
  | { transport: "http" | "sse"; headers: Readonly<Record<string, unknown>> };

/** Environment variables whose values are treated as secrets: keys, tokens, passwords. */
const SECRET_ENV_NAME = /(?:KEY|TOKEN|SECRET|PASSWORD)$/;
/** Names of MCP env variables and headers whose literal values are treated as secrets too. */
const SECRET_CONFIG_NAME = /KEY|TOKEN|SECRET|PASSWORD|AUTH|COOKIE|CREDENTIAL/i;
/** Shorter values (flags, ports) would redact ordinary text. */
const MIN_ENV_SECRET_LENGTH = 8;

/** Values that must never leave the process: `WADDLE_SECRET_*`, the token, and keys found in the environment. */
export function collectSecretValues(options: {
  env: NodeJS.ProcessEnv;
  /** `WADDLE_SECRET_*` values and the MCP servers (see `RunSettings`). */
  settings: { secrets: Readonly<Record<string, string>>; mcpServers?: readonly McpSecretSource[] };
  token?: string;
}): string[] {
  const fromEnv = Object.entries(options.env).flatMap(([name, value]) =>
    value && SECRET_ENV_NAME.test(name) && value.length >= MIN_ENV_SECRET_LENGTH ? [value] : [],
  );
  return [
    ...Object.values(options.settings.secrets),
    ...(options.token ? [options.token] : []),
    ...fromEnv,
    ...getMcpLiteralSecrets(options.settings.mcpServers ?? []),
  ];
}

/** Literal values an MCP server's config gives to secret-looking env variables or headers. */
function getMcpLiteralSecrets(servers: readonly McpSecretSource[]): string[] {
  return servers.flatMap((server) =>
    Object.entries(server.transport === "stdio" ? server.env : server.headers).flatMap(([name, value]) =>
      typeof value === "string" && value.length >= MIN_ENV_SECRET_LENGTH && SECRET_CONFIG_NAME.test(name)
        ? [value]
        : [],
    ),
  );
}
