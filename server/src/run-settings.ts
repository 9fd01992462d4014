import { readFileSync } from "node:fs";
import path from "node:path";
import { LlmPrice, parseJson, protoSafeReviver } from "@waddle/protocol";
import type { PriceTable } from "@waddle/planner";
import { z } from "zod";
import { ConfigError } from "./shared/config-error.js";
import { parseLlmAllow, parseLlmKeyEnvs } from "./llm/llm-endpoint-policy.js";
import {
  assertMcpSecretsPresent,
  readMcpServersConfig,
  type McpServerConfig,
} from "./mcp-client/mcp-servers-config.js";

/** The settings that decide what runs may do, read alike by the server and the CLI's in-process runs. */
export interface RunSettings {
  /** A folder of user module tools (`WADDLE_TOOLS_DIR`). */
  toolsDir?: string;
  /** Hosts http tools may call (`WADDLE_HTTP_ALLOW`). */
  httpAllow: string[];
  /** Values of `WADDLE_SECRET_<NAME>`, by `NAME`. */
  secrets: Record<string, string>;
  /** Origins a spec's `llm.baseUrl` may use besides OPENAI_BASE_URL's and OpenAI's (`WADDLE_LLM_ALLOW`). */
  llmAllow: string[];
  /** Variables a spec's `apiKeyEnv` may name besides OPENAI_API_KEY (`WADDLE_LLM_KEY_ENVS`). */
  llmKeyEnvs: string[];
  /** Model prices that extend the built-in table (`WADDLE_PRICES`). */
  prices?: PriceTable;
  /** The MCP servers mcp tools may use (`WADDLE_MCP_SERVERS`); none when unset. */
  mcpServers?: McpServerConfig[];
}

const SECRET_PREFIX = "WADDLE_SECRET_";
const PriceTableSchema = z.record(z.string().min(1).max(200), LlmPrice);

/**
 * Reads `WADDLE_PRICES`: inline JSON (`{"my-model": {"inputPerMTok": 0.2, "outputPerMTok": 0.8}}`) or the
 * path of a JSON file holding the same, USD per million tokens by model name.
 */
export function readPriceTable(value: string | undefined, cwd: string): PriceTable | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let json = text;
  if (!text.startsWith("{")) {
    const file = path.resolve(cwd, text);
    try {
      json = readFileSync(file, "utf8");
    } catch (error) {
      throw new ConfigError(
        `WADDLE_PRICES names the file ${file}, which cannot be read (${(error as { code?: string }).code ?? String(error)}): give inline JSON or the path of a JSON file.`,
      );
    }
  }
  const parsed = parseJson(json, { reviver: protoSafeReviver });
  if (!parsed.ok) throw new ConfigError(`WADDLE_PRICES is not valid JSON: ${parsed.error}.`);
  const table = PriceTableSchema.safeParse(parsed.value);
  if (!table.success) {
    const issue = table.error.issues[0];
    throw new ConfigError(
      `WADDLE_PRICES at ${issue?.path.join(".") || "(root)"}: ${issue?.message}. Give {"model": {"inputPerMTok": n, "outputPerMTok": n, "reasoningPerMTok"?: n}}, USD per million tokens.`,
    );
  }
  return table.data;
}

/**
 * Reads `WADDLE_TOOLS_DIR`, `WADDLE_HTTP_ALLOW`, `WADDLE_SECRET_<NAME>`, `WADDLE_LLM_ALLOW`,
 * `WADDLE_LLM_KEY_ENVS`, `WADDLE_PRICES` and `WADDLE_MCP_SERVERS`; throws `ConfigError` naming the variable
 * to fix.
 */
export function readRunSettings(env: NodeJS.ProcessEnv, cwd = process.cwd()): RunSettings {
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith(SECRET_PREFIX) && name.length > SECRET_PREFIX.length && value)
      secrets[name.slice(SECRET_PREFIX.length)] = value;
  }
  const toolsDir = env.WADDLE_TOOLS_DIR?.trim();
  const prices = readPriceTable(env.WADDLE_PRICES, cwd);
  const mcpServers = readMcpServersConfig(env.WADDLE_MCP_SERVERS, cwd);
  assertMcpSecretsPresent(mcpServers, secrets);
  return {
    ...(toolsDir ? { toolsDir: path.resolve(cwd, toolsDir) } : {}),
    httpAllow: (env.WADDLE_HTTP_ALLOW ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
    secrets,
    llmAllow: parseLlmAllow(env.WADDLE_LLM_ALLOW),
    llmKeyEnvs: parseLlmKeyEnvs(env.WADDLE_LLM_KEY_ENVS),
    ...(prices ? { prices } : {}),
    ...(mcpServers.length > 0 ? { mcpServers } : {}),
  };
}
