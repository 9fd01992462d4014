import { existsSync } from "node:fs";
import type { PriceTable } from "@waddle/planner";
import { LlmEndpointPolicy } from "./llm/llm-endpoint-policy.js";
import { createLogger, type Logger, type LogLevel } from "./shared/logger.js";
import { McpClientManager } from "./mcp-client/mcp-client-manager.js";
import type { McpServerConfig } from "./mcp-client/mcp-servers-config.js";
import type { RunSettings } from "./run-settings.js";
import { HostAllowList } from "./tools/host-allow-list.js";
import type { HostLookup } from "./tools/resolve-allowed-address.js";
import { loadToolModules, type ModuleImporter } from "./tools/load-tool-modules.js";
import { SecretRedactor } from "./tools/secret-redactor.js";
import { ToolRegistry } from "./tools/tool-registry.js";

/** Environment variables whose values are treated as secrets: keys, tokens, passwords. */
const SECRET_ENV_NAME = /(?:KEY|TOKEN|SECRET|PASSWORD)$/;
/** Names of MCP env variables and headers whose literal values are treated as secrets too. */
const SECRET_CONFIG_NAME = /KEY|TOKEN|SECRET|PASSWORD|AUTH|COOKIE|CREDENTIAL/i;
/** Shorter values (flags, ports) would redact ordinary text. */
const MIN_ENV_SECRET_LENGTH = 8;

export interface RunSetupOptions {
  /** Where LLM keys and OPENAI_BASE_URL are read, and whose *KEY / *TOKEN / *SECRET / *PASSWORD values are secret. */
  env: NodeJS.ProcessEnv;
  settings: RunSettings;
  /** The API token (`WADDLE_TOKEN`), a secret too. */
  token?: string;
  /** Module tools loaded before the user's `settings.toolsDir` (apps/examples/tools); null for none. */
  exampleToolsDir: string | null;
  importModule?: ModuleImporter;
  /** Defaults to a logger at `logLevel` that redacts the secrets. */
  logger?: Logger;
  logLevel?: LogLevel | "silent";
  /** How Streamable HTTP MCP servers' host names are resolved; the system resolver by default. */
  lookup?: HostLookup;
  /** Reported to MCP servers as the client's version. */
  version?: string;
}

/** What every run needs besides the store; spread it into `createDefaultPlannerFactory`. */
export interface RunSetup {
  env: NodeJS.ProcessEnv;
  registry: ToolRegistry;
  secrets: Readonly<Record<string, string>>;
  redactor: SecretRedactor;
  logger: Logger;
  llmPolicy: LlmEndpointPolicy;
  allowList: HostAllowList;
  priceTable?: PriceTable;
  /** The MCP servers of `WADDLE_MCP_SERVERS`, connected on first use; close it when done. */
  mcp: McpClientManager;
}

/** Values that must never leave the process: `WADDLE_SECRET_*`, the token, and keys found in the environment. */
export function collectSecretValues(options: Pick<RunSetupOptions, "env" | "settings" | "token">): string[] {
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
function getMcpLiteralSecrets(servers: readonly McpServerConfig[]): string[] {
  return servers.flatMap((server) =>
    Object.entries(server.transport === "stdio" ? server.env : server.headers).flatMap(([name, value]) =>
      typeof value === "string" && value.length >= MIN_ENV_SECRET_LENGTH && SECRET_CONFIG_NAME.test(name)
        ? [value]
        : [],
    ),
  );
}

async function createRegistry(options: RunSetupOptions, logger: Logger): Promise<ToolRegistry> {
  const registry = new ToolRegistry();
  const folders = [
    { dir: options.exampleToolsDir, label: "examples" },
    { dir: options.settings.toolsDir ?? null, label: "user" },
  ];
  for (const { dir, label } of folders) {
    if (!dir) continue;
    if (!existsSync(dir)) {
      logger.warn("tool folder not found", { dir });
      continue;
    }
    const loaded = await loadToolModules({
      dir,
      label,
      ...(options.importModule ? { importModule: options.importModule } : {}),
    });
    for (const error of loaded.errors) logger.warn("tool module not loaded", error);
    for (const tool of loaded.tools) registry.register(tool.definition, tool.source);
  }
  return registry;
}

function createMcpClients(
  options: RunSetupOptions & { allowList: HostAllowList; redactor: SecretRedactor; logger: Logger },
): McpClientManager {
  const servers = options.settings.mcpServers ?? [];
  for (const server of servers) {
    if (server.transport === "http" && !options.allowList.isAllowed(new URL(server.url))) {
      options.logger.warn("MCP server not on WADDLE_HTTP_ALLOW: its calls are refused", {
        server: server.name,
        host: new URL(server.url).host,
      });
    }
  }
  return new McpClientManager({
    servers,
    secrets: options.settings.secrets,
    allowList: options.allowList,
    redactor: options.redactor,
    logger: options.logger,
    ...(options.lookup ? { lookup: options.lookup } : {}),
    ...(options.version ? { clientVersion: options.version } : {}),
  });
}

/**
 * Everything runs need besides the store, built the same way for the server and for the CLI's in-process
 * runs: the secret redactor, the module tool registry, the LLM endpoint policy, the http allow-list, the
 * price table and the MCP servers (none started yet). Throws `ConfigError` for settings it cannot use.
 */
export async function createRunSetup(options: RunSetupOptions): Promise<RunSetup> {
  const { settings } = options;
  const redactor = new SecretRedactor(collectSecretValues(options));
  const logger = options.logger ?? createLogger({ level: options.logLevel ?? "info", redactor });
  const llmPolicy = new LlmEndpointPolicy({
    env: options.env,
    allow: settings.llmAllow,
    keyEnvs: settings.llmKeyEnvs,
  });
  const allowList = new HostAllowList(settings.httpAllow);
  return {
    env: options.env,
    registry: await createRegistry(options, logger),
    secrets: settings.secrets,
    redactor,
    logger,
    llmPolicy,
    allowList,
    ...(settings.prices ? { priceTable: settings.prices } : {}),
    mcp: createMcpClients({ ...options, allowList, redactor, logger }),
  };
}
