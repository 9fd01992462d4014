import { existsSync } from "node:fs";
import type { PriceTable } from "@waddle/planner";
import { LlmEndpointPolicy } from "./llm/llm-endpoint-policy.js";
import { createLogger, type Logger, type LogLevel } from "./shared/logger.js";
import { McpClientManager } from "./mcp-client/mcp-client-manager.js";
import type { RunSettings } from "./run-settings.js";
import { HostAllowList } from "./tools/host-allow-list.js";
import type { HostLookup } from "./tools/resolve-allowed-address.js";
import { loadToolModules, type ModuleImporter } from "./tools/load-tool-modules.js";
import { collectSecretValues } from "./secrets/collect-secret-values.js";
import { SecretRedactor } from "./secrets/secret-redactor.js";
import { ToolRegistry } from "./tools/tool-registry.js";
import type { ToolTracing } from "./tools/tool-trace-scope.js";

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
  /** Tracing's hook into tool calls (late-bound: set once tracing starts, empty while it is off). */
  toolTracing: ToolTracing;
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
    for (const tool of loaded.tools) registry.register(tool.definition, tool.source, tool.file);
    for (const check of loaded.guardChecks)
      registry.registerGuardCheck(check.definition, check.source, check.file);
  }
  return registry;
}

function createMcpClients(
  options: RunSetupOptions & { allowList: HostAllowList; redactor: SecretRedactor; logger: Logger },
): McpClientManager {
  const servers = options.settings.mcpServers ?? [];
  for (const server of servers) {
    // Keys of another client's config file that Waddle leaves (never fatal): said once, at start.
    for (const note of server.notes ?? []) {
      options.logger.info("WADDLE_MCP_SERVERS: ignored", { server: server.name, note });
    }
    if (server.transport !== "stdio" && !options.allowList.isAllowed(new URL(server.url))) {
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
    toolTracing: {},
  };
}
