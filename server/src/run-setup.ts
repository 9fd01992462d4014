import { existsSync } from "node:fs";
import type { PriceTable } from "@waddle/planner";
import { LlmEndpointPolicy } from "./llm/llm-endpoint-policy.js";
import { createLogger, type Logger, type LogLevel } from "./logger.js";
import type { RunSettings } from "./run-settings.js";
import { HostAllowList } from "./tools/host-allow-list.js";
import { loadToolModules, type ModuleImporter } from "./tools/load-tool-modules.js";
import { SecretRedactor } from "./tools/secret-redactor.js";
import { ToolRegistry } from "./tools/tool-registry.js";

/** Environment variables whose values are treated as secrets: keys, tokens, passwords. */
const SECRET_ENV_NAME = /(?:KEY|TOKEN|SECRET|PASSWORD)$/;
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
}

/** Values that must never leave the process: `WADDLE_SECRET_*`, the token, and keys found in the environment. */
export function collectSecretValues(options: Pick<RunSetupOptions, "env" | "settings" | "token">): string[] {
  const fromEnv = Object.entries(options.env).flatMap(([name, value]) =>
    value && SECRET_ENV_NAME.test(name) && value.length >= MIN_ENV_SECRET_LENGTH ? [value] : [],
  );
  return [...Object.values(options.settings.secrets), ...(options.token ? [options.token] : []), ...fromEnv];
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

/**
 * Everything runs need besides the store, built the same way for the server and for the CLI's in-process
 * runs: the secret redactor, the module tool registry, the LLM endpoint policy, the http allow-list and the
 * price table. Throws `ConfigError` for settings it cannot use.
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
  return {
    env: options.env,
    registry: await createRegistry(options, logger),
    secrets: settings.secrets,
    redactor,
    logger,
    llmPolicy,
    allowList: new HostAllowList(settings.httpAllow),
    ...(settings.prices ? { priceTable: settings.prices } : {}),
  };
}
