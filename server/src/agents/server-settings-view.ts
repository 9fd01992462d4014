import type { LlmConfig } from "@waddle/protocol";
import { DEFAULT_LLM_KEY_ENV, type LlmEndpointPolicy } from "../llm/llm-endpoint-policy.js";
import type { McpClientManager } from "../mcp-client/mcp-client-manager.js";
import type { WaddleStore } from "../store/waddle-store.js";
import type { HostAllowList } from "../tools/host-allow-list.js";

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
  /** Brings the view up to the settings as they are now (stored credentials and hosts); called per check. */
  refresh?(): Promise<void>;
}

/** The view over today's environment-based settings: the run setup's allow-lists, secrets and MCP servers. */
export function createEnvSettingsView(options: {
  env: NodeJS.ProcessEnv;
  allowList: HostAllowList;
  llmPolicy: LlmEndpointPolicy;
  secrets: Readonly<Record<string, string>>;
  mcp: Pick<McpClientManager, "names">;
  store: Pick<WaddleStore, "getAgent">;
}): ServerSettingsView {
  const keyName = (config: LlmConfig) => config.apiKeyEnv ?? DEFAULT_LLM_KEY_ENV;
  return {
    isHostAllowed: (url) => options.allowList.isAllowed(url),
    getLlmEndpointRefusal: (config) => {
      const refusal = options.llmPolicy.check(config, "llm").find((item) => item.field === "baseUrl");
      return refusal ? { origin: refusal.value, message: refusal.message } : undefined;
    },
    hasSecret: (name) => Object.prototype.hasOwnProperty.call(options.secrets, name),
    hasLlmKey: (config) => Boolean(options.env[keyName(config)]),
    getLlmKeyName: keyName,
    hasMcpServer: (name) => options.mcp.names.includes(name),
    listMcpServers: () => options.mcp.names,
    hasAgent: async (id) => (await options.store.getAgent(id)) !== undefined,
  };
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
  mcp: Pick<McpClientManager, "names">;
  store: Pick<WaddleStore, "getAgent">;
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
    hasLlmKey: (config) =>
      config.credential !== undefined
        ? live.getLlmKey(config.credential) !== undefined
        : Boolean(options.env[keyName(config)]) || live.getLlmKey(keyName(config)) !== undefined,
    getLlmKeyName: keyName,
    refresh: async () => {
      live = await options.getRunSettings();
    },
  };
}
