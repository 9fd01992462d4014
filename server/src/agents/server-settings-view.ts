import type { LlmConfig } from "@waddle/protocol";
import { DEFAULT_LLM_KEY_ENV, type LlmEndpointPolicy } from "../llm/llm-endpoint-policy.js";
import type { McpClientManager } from "../mcp-client/mcp-client-manager.js";
import type { WaddleStore } from "../store/waddle-store.js";
import type { HostAllowList } from "../tools/host-allow-list.js";
import type { ToolRegistry } from "../tools/tool-registry.js";
import { fetchA2aCard, type A2aCardSummary } from "../tools/a2a-card.js";

/**
 * What validation needs to know of this server's settings, as small questions: today they read the
 * environment-based config (`WADDLE_HTTP_ALLOW`, `WADDLE_SECRET_*`, `WADDLE_LLM_ALLOW`, `WADDLE_MCP_SERVERS`);
 * stored credentials and a stored allow-list plug in by answering the same questions.
 */
export interface ServerSettingsView {
  /** May an http tool reach this URL's host? */
  isHostAllowed(url: URL): boolean;
  /** Why this LLM config's endpoint may not be used (a sentence), or undefined when it may. */
  getLlmEndpointRefusal(config: LlmConfig): { origin: string; message: string } | undefined;
  /** Does the secret `NAME` of `{"secret": "NAME"}` exist? */
  hasSecret(name: string): boolean;
  /** The secret's value, for reading an a2a tool's card with its auth header (never shown). */
  getSecret?(name: string): string | undefined;
  /** Does the key this LLM config uses exist (else runs fall back to the offline model)? */
  hasLlmKey(config: LlmConfig): boolean;
  /** The key's name, for messages (`OPENAI_API_KEY`, or the config's own). */
  getLlmKeyName(config: LlmConfig): string;
  /** Is the MCP server `name` configured here? */
  hasMcpServer(name: string): boolean;
  /** The MCP servers configured here, for messages. */
  listMcpServers(): string[];
  /** Is there a saved agent with this id (for agent tools)? */
  hasAgent(id: string): Promise<boolean>;
  /** The tools an MCP server lists, or undefined when it cannot be listed now (for unknown-tool checks). */
  listMcpTools?(server: string): Promise<string[] | undefined>;
  /** Why an a2a tool's card cannot be used (a sentence), or undefined when it reads as a card. */
  checkA2aCard?(url: string, headers: Readonly<Record<string, string>>): Promise<string | undefined>;
  /** Reads an A2A Agent Card through the allow-list (the palette's A2A agent); throws what a call would. */
  readA2aCard?(url: string): Promise<A2aCardSummary>;
  /** The module guard checks (`defineGuardCheck`) registered here, by name; unset: not checked. */
  listGuardChecks?(): string[];
  /** Brings the view up to the settings as they are now (stored credentials and hosts); called per check. */
  refresh?(): Promise<void>;
}

/** The view over today's environment-based settings: the run setup's allow-lists, secrets and MCP servers. */
export function createEnvSettingsView(options: {
  env: NodeJS.ProcessEnv;
  allowList: HostAllowList;
  llmPolicy: LlmEndpointPolicy;
  secrets: Readonly<Record<string, string>>;
  mcp: Pick<McpClientManager, "names"> & Partial<Pick<McpClientManager, "get">>;
  store: Pick<WaddleStore, "getAgent">;
  /** Where module guard checks are registered (the tool registry). */
  guardChecks?: Pick<ToolRegistry, "getGuardChecks">;
}): ServerSettingsView {
  const keyName = (config: LlmConfig) => config.apiKeyEnv ?? DEFAULT_LLM_KEY_ENV;
  const { guardChecks } = options;
  return {
    isHostAllowed: (url) => options.allowList.isAllowed(url),
    getLlmEndpointRefusal: (config) => {
      const refusal = options.llmPolicy.check(config, "llm").find((item) => item.field === "baseUrl");
      return refusal ? { origin: refusal.value, message: refusal.message } : undefined;
    },
    hasSecret: (name) => Object.prototype.hasOwnProperty.call(options.secrets, name),
    getSecret: (name) =>
      Object.prototype.hasOwnProperty.call(options.secrets, name) ? options.secrets[name] : undefined,
    hasLlmKey: (config) => Boolean(options.env[keyName(config)]),
    getLlmKeyName: keyName,
    hasMcpServer: (name) => options.mcp.names.includes(name),
    listMcpServers: () => options.mcp.names,
    hasAgent: async (id) => (await options.store.getAgent(id)) !== undefined,
    listMcpTools: (server) => listMcpTools(options.mcp, server),
    checkA2aCard: (url, headers) => checkA2aCard(url, { allowList: options.allowList, headers }),
    readA2aCard: async (url) => (await fetchA2aCard(url, { allowList: options.allowList })).summary,
    ...(guardChecks ? { listGuardChecks: () => [...guardChecks.getGuardChecks().keys()].sort() } : {}),
  };
}

/** How long validation waits for an MCP server's listing before it leaves its tools unchecked. */
const MCP_LIST_WAIT_MS = 5_000;

async function listMcpTools(
  mcp: Partial<Pick<McpClientManager, "get">>,
  server: string,
): Promise<string[] | undefined> {
  const connection = mcp.get?.(server);
  if (!connection) return undefined;
  const timeout = new Promise<undefined>((resolve) =>
    setTimeout(() => resolve(undefined), MCP_LIST_WAIT_MS).unref(),
  );
  const listed = await Promise.race([connection.listTools().catch(() => undefined), timeout]);
  return listed?.map((tool) => tool.name);
}

async function checkA2aCard(
  url: string,
  options: { allowList: HostAllowList; headers: Readonly<Record<string, string>> },
): Promise<string | undefined> {
  try {
    await fetchA2aCard(url, options);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The settings a run would start with now: the environment's and the stored ones (`CredentialVault`). */
export interface LiveSettings {
  secrets: Readonly<Record<string, string>>;
  allowList: HostAllowList;
  llmPolicy: LlmEndpointPolicy;
  getLlmKey(name: string): unknown;
}

/**
 * The view over the settings a run reads as it starts: the environment's plus the credentials and hosts
 * stored from the browser, read again before each check, so that validation warns of what the next run
 * would meet (a host added a moment ago is allowed, a stored key counts).
 */
export function createLiveSettingsView(options: {
  env: NodeJS.ProcessEnv;
  getRunSettings: () => Promise<LiveSettings>;
  initial: LiveSettings;
  mcp: Pick<McpClientManager, "names"> & Partial<Pick<McpClientManager, "get">>;
  store: Pick<WaddleStore, "getAgent">;
  guardChecks?: Pick<ToolRegistry, "getGuardChecks">;
}): ServerSettingsView {
  let live = options.initial;
  const keyName = (config: LlmConfig) => config.credential ?? config.apiKeyEnv ?? DEFAULT_LLM_KEY_ENV;
  const view = createEnvSettingsView({ ...options, ...live });
  return {
    ...view,
    isHostAllowed: (url) => live.allowList.isAllowed(url),
    getLlmEndpointRefusal: (config) => {
      const refusal = live.llmPolicy.check(config, "llm").find((item) => item.field === "baseUrl");
      return refusal ? { origin: refusal.value, message: refusal.message } : undefined;
    },
    hasSecret: (name) => Object.prototype.hasOwnProperty.call(live.secrets, name),
    getSecret: (name) =>
      Object.prototype.hasOwnProperty.call(live.secrets, name) ? live.secrets[name] : undefined,
    hasLlmKey: (config) =>
      config.credential !== undefined
        ? live.getLlmKey(config.credential) !== undefined
        : Boolean(options.env[keyName(config)]) || live.getLlmKey(keyName(config)) !== undefined,
    getLlmKeyName: keyName,
    checkA2aCard: (url, headers) => checkA2aCard(url, { allowList: live.allowList, headers }),
    readA2aCard: async (url) => (await fetchA2aCard(url, { allowList: live.allowList })).summary,
    refresh: async () => {
      live = await options.getRunSettings();
    },
  };
}
